import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, compiledBinder, type KilnRequest } from '@kiln/core';
import { start, type Started } from '../support/server.js';
import { raw, lastJsonBody } from '../support/raw.js';

// One request path, one route: whether the target is origin-form, absolute-form or a Request
// given to app.fetch, the path is matched in one normalised form.

@Controller('/static')
class StaticController {
  @Get('/featured') featured() {
    return { route: 'featured' };
  }
  @Get('/:id') @compiledBinder((req: KilnRequest) => [req.params.id]) byId(id: string) {
    return { route: 'id', id };
  }
}

@Controller('/t')
class StatsController {
  @Get('/stats') stats() {
    return { route: 'stats' };
  }
  @Get('/p/stats') pStats() {
    return { route: 'p/stats' };
  }
  @Get('/') root() {
    return { route: 't' };
  }
}

let server: Started;
let port: number;
const Paths = suite('path normalisation');
Paths.before(async () => {
  server = await start({ controllers: [StaticController, StatsController] });
  port = Number(new URL(server.base).port);
});
Paths.after(() => server.close());

/** The same path as an origin-form target, an absolute-form target, and through app.fetch. */
async function everyWay(path: string): Promise<{ status: number; body: unknown }[]> {
  const answers: { status: number; body: unknown }[] = [];
  for (const target of [path, `http://x${path}`]) {
    const reply = await raw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    // raw replies are latin1 text; the JSON body is UTF-8
    answers.push({
      status: reply.statuses[0]!,
      body: JSON.parse(Buffer.from(reply.text.slice(reply.text.indexOf('\r\n\r\n') + 4), 'latin1').toString('utf8')),
    });
  }
  const response = await server.app.fetch(new Request(`http://localhost${path}`));
  answers.push({ status: response.status, body: await response.json() });
  return answers;
}

async function reachesEveryWay(path: string, body: unknown): Promise<void> {
  const answers = await everyWay(path);
  assert.equal(
    answers,
    [
      { status: 200, body },
      { status: 200, body },
      { status: 200, body },
    ],
    path,
  );
}

Paths('a percent-encoded unreserved character reaches the static route: /static/%66eatured is /static/featured', async () => {
  await reachesEveryWay('/static/%66eatured', { route: 'featured' });
  await reachesEveryWay('/static/%46eatured', { route: 'id', id: 'Featured' });
  await reachesEveryWay('/%73tatic/featur%65d', { route: 'featured' });
});

Paths('other escapes keep their meaning in parameters', async () => {
  await reachesEveryWay('/static/a%2Fb', { route: 'id', id: 'a/b' });
  await reachesEveryWay('/static/caf%C3%A9', { route: 'id', id: 'café' });
  await reachesEveryWay('/static/a%20b', { route: 'id', id: 'a b' });
});

Paths('dot segments are resolved the same way for every form of target', async () => {
  await reachesEveryWay('/t/p/../stats', { route: 'stats' });
  await reachesEveryWay('/t/p/./stats', { route: 'p/stats' });
  await reachesEveryWay('/t/p/%2e%2e/stats', { route: 'stats' });
  await reachesEveryWay('/t/p/%2E./stats', { route: 'stats' });
  await reachesEveryWay('/x/../../t/stats', { route: 'stats' });
  await reachesEveryWay('/t/stats/..', { route: 't' });
});

Paths('a segment that merely contains dots is not a dot segment', async () => {
  await reachesEveryWay('/static/..featured', { route: 'id', id: '..featured' });
  await reachesEveryWay('/static/a.b', { route: 'id', id: 'a.b' });
});

Paths('a backslash is a separator, as the URL parser reads it, in origin-form and absolute-form targets', async () => {
  for (const target of ['/t/p\\..\\stats', 'http://x/t/p\\..\\stats']) {
    const reply = await raw(port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    assert.equal(reply.statuses, [200], target);
    assert.equal(lastJsonBody(reply), { route: 'stats' }, target);
  }
});

Paths.run();
