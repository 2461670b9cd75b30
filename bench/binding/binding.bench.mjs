// Binding micro-benchmark: Kiln's compiled binder for UsersController.get against a
// reflection-based binder of the same handler. The outputs are checked equal on several inputs
// before anything is timed.
import { deepStrictEqual } from 'node:assert/strict';
import { measure, do_not_optimize } from 'mitata';
import { UsersController as KilnUsersController } from '../build/kiln/http/servers/kiln/users-controller.js';
import { UsersController as ReflectionUsersController } from '../build/legacy/binding/reflection-users-controller.js';
import { reflectionBinder } from '../build/legacy/binding/reflection-binder.js';
import { kilnBinderOf } from './kiln-binder-of.mjs';
import { checkedRequests, timedRequest } from './binding-requests.mjs';

export async function runBinding({ log = console.log } = {}) {
  const compiled = kilnBinderOf(KilnUsersController, 'get');
  const reflected = reflectionBinder(ReflectionUsersController, 'get');

  for (const req of checkedRequests) {
    deepStrictEqual(compiled(req, false), reflected(req, false), `binders disagree on ${JSON.stringify(req.params)}`);
  }
  log(`binding: outputs equal on ${checkedRequests.length} inputs`);

  const timings = {};
  for (const [name, binder] of [['kiln compiled', compiled], ['reflection', reflected]]) {
    const stats = await measure(() => do_not_optimize(binder(timedRequest, false)), { min_cpu_time: 1e9 });
    timings[name] = { avgNs: stats.avg, p50Ns: stats.p50, p99Ns: stats.p99 };
    log(`binding: ${name.padEnd(14)} ${stats.avg.toFixed(1)} ns/op (p50 ${stats.p50.toFixed(1)})`);
  }
  const ratio = timings.reflection.avgNs / timings['kiln compiled'].avgNs;
  log(`binding: compiled is ${ratio.toFixed(1)}x faster than reflection`);
  return { timings, ratio };
}
