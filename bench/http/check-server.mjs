// The correctness check every server passes before it is timed: status, content type and body of
// each scenario it serves (every route of the mixed traffic), the 400 for an invalid body, and the
// limiter's headers.
import { deepStrictEqual, equal, match, ok } from 'node:assert/strict';

async function send(port, { method, path, headers, body }) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

function assertRateLimitHeaders(answer, where) {
  const names = [...answer.headers.keys()];
  ok(
    names.some((name) => /ratelimit/i.test(name)),
    `${where}: no rate-limit header in ${names.join(', ')}`,
  );
}

async function checkMixed(port, where, entries) {
  for (const { shape, request, expected } of entries) {
    const at = `${where}, ${request.method} ${request.path} (${shape})`;
    const answer = await send(port, request);
    equal(answer.status, expected.status, `${at}: status ${answer.status}, body ${answer.text}`);
    if (expected.json !== undefined) {
      match(answer.headers.get('content-type') ?? '', /^application\/json/, `${at}: content-type`);
      deepStrictEqual(JSON.parse(answer.text), expected.json, `${at}: body`);
    } else {
      equal(answer.text, expected.text, `${at}: body`);
    }
    if (expected.contentType) match(answer.headers.get('content-type') ?? '', expected.contentType, `${at}: content-type`);
    if (expected.rateLimitHeaders) assertRateLimitHeaders(answer, at);
  }
}

let userList;
async function expectedList() {
  userList ??= (await import('../build/kiln/http/user-list.js')).userList;
  return userList;
}

/** Throws an AssertionError naming the server and scenario at the first wrong answer. */
export async function checkServer(server, port, scenarios) {
  for (const scenario of scenarios) {
    const where = `${server.name} ${scenario.title}`;
    if (scenario.mixed !== undefined) {
      await checkMixed(port, where, scenario.mixed);
      continue;
    }
    const answer = await send(port, scenario.request);
    equal(answer.status, 200, `${where}: status ${answer.status}, body ${answer.text}`);
    match(answer.headers.get('content-type') ?? '', /^application\/json/, `${where}: content-type`);
    const expected = scenario.expectedList ? await expectedList() : scenario.expected;
    deepStrictEqual(JSON.parse(answer.text), expected, `${where}: body`);
    if (scenario.rateLimited) assertRateLimitHeaders(answer, where);
    if (scenario.invalid) {
      const refused = await send(port, scenario.invalid);
      equal(refused.status, 400, `${where}: an invalid body answered ${refused.status}`);
    }
  }
}
