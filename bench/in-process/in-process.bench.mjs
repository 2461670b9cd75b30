// A listener's own work per request, without a socket: Kiln's `app.handler` against the
// hand-written node:http listener on the same stub request, for routes (a), (b) and (d). What
// the HTTP part cannot separate on a noisy machine — how much of a request's CPU time is Kiln's
// — this measures directly. Answers are checked equal to the scenario's before timing.
import { deepStrictEqual, equal } from 'node:assert/strict';
import { measure } from 'mitata';
import { createKilnApp } from '../build/kiln/http/servers/kiln/app.js';
import { createRawListener } from '../http/servers/raw-node-listener.mjs';
import { scenarios } from '../http/scenarios.mjs';
import { stubRequest, stubResponse } from './stub-exchange.mjs';

async function serve(listener, req) {
  const res = stubResponse();
  listener(req, res);
  if (res.body === undefined) await res.finished;
  return res;
}

export async function runInProcess({ log = console.log } = {}) {
  const results = {};
  for (const scenario of scenarios.filter((s) => ['a', 'b', 'd'].includes(s.id))) {
    const rateLimited = Boolean(scenario.rateLimited);
    const kiln = (await createKilnApp({ rateLimited })).handler;
    const raw = createRawListener({ rateLimited });
    const req = stubRequest(scenario.request);
    for (const [name, listener] of [
      ['Kiln', kiln],
      ['node:http (raw)', raw],
    ]) {
      const res = await serve(listener, req);
      equal(res.status, 200, `${name} ${scenario.title}: status`);
      deepStrictEqual(JSON.parse(res.body), scenario.expected, `${name} ${scenario.title}: body`);
    }
    // One function literal per listener (closures of one literal share V8's type feedback).
    const timeKiln = () => serve(kiln, req);
    const timeRaw = () => serve(raw, req);
    const stats = {};
    for (let pass = 0; pass < 2; pass++) {
      stats.Kiln = await measure(timeKiln, { min_cpu_time: 5e8 });
      stats.raw = await measure(timeRaw, { min_cpu_time: 5e8 });
    }
    // Fastest batches (each a mean over many requests): preemption by other work only adds time.
    results[scenario.id] = { kilnNs: stats.Kiln.min, rawNs: stats.raw.min, kilnMedianNs: stats.Kiln.p50, rawMedianNs: stats.raw.p50 };
    log(
      `in-process: ${scenario.title}: Kiln ${stats.Kiln.min.toFixed(0)} ns, raw ${stats.raw.min.toFixed(0)} ns per request (fastest batches; medians ${stats.Kiln.p50.toFixed(0)}, ${stats.raw.p50.toFixed(0)})`,
    );
  }
  return { results };
}
