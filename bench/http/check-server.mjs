// The correctness check every server passes before it is timed: status, JSON content type and
// body of each scenario it serves, the 400 for an invalid body, and the limiter's headers.
import { deepStrictEqual, equal, match, ok } from 'node:assert/strict';

async function send(port, { method, path, headers, body }) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

/** Throws an AssertionError naming the server and scenario at the first wrong answer. */
export async function checkServer(server, port, scenarios) {
  for (const scenario of scenarios) {
    const where = `${server.name} ${scenario.title}`;
    const answer = await send(port, scenario.request);
    equal(answer.status, 200, `${where}: status ${answer.status}, body ${answer.text}`);
    match(answer.headers.get('content-type') ?? '', /^application\/json/, `${where}: content-type`);
    deepStrictEqual(JSON.parse(answer.text), scenario.expected, `${where}: body`);
    if (scenario.rateLimited) {
      const names = [...answer.headers.keys()];
      ok(names.some((name) => /ratelimit/i.test(name)), `${where}: no rate-limit header in ${names.join(', ')}`);
    }
    if (scenario.invalid) {
      const refused = await send(port, scenario.invalid);
      equal(refused.status, 400, `${where}: an invalid body answered ${refused.status}`);
    }
  }
}
