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

  // The floor under any binder: reading the four raw values into an array, converting nothing.
  const readsOnly = (req) => [req.params.id, req.query.active, req.query.tags, req.headers.get('x-request-id')];

  // One function literal per case: closures made from one literal share V8's type feedback, which
  // would make the later cases pay for a polymorphic call site. Two passes; the second is kept.
  const cases = {
    'kiln compiled': () => do_not_optimize(compiled(timedRequest, false)),
    reflection: () => do_not_optimize(reflected(timedRequest, false)),
    'reads only (floor)': () => do_not_optimize(readsOnly(timedRequest)),
  };
  const timings = {};
  for (let pass = 0; pass < 2; pass++) {
    for (const [name, run] of Object.entries(cases)) {
      const stats = await measure(run, { min_cpu_time: 5e8 });
      timings[name] = { avgNs: stats.avg, p50Ns: stats.p50, p99Ns: stats.p99 };
    }
  }
  for (const [name, t] of Object.entries(timings)) log(`binding: ${name.padEnd(18)} ${t.avgNs.toFixed(1)} ns/op (p50 ${t.p50Ns.toFixed(1)})`);
  const ratio = timings.reflection.avgNs / timings['kiln compiled'].avgNs;
  log(`binding: compiled is ${ratio.toFixed(1)}x faster than reflection`);
  return { timings, ratio };
}
