import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Controller, Get, Post, HttpStatus, HttpCode, HttpError, type KilnRequest } from '@kiln/core';
import { overBothTransports, start, request } from '../support/server.js';

const logged: unknown[] = [];

@Controller('/r')
class ResponsesController {
  @Get('/object') object() {
    return { name: '@kiln/core', tags: ['a'] };
  }
  @Get('/string') string() {
    return 'hello';
  }
  @Get('/number') number() {
    return 42;
  }
  @Get('/null') nothing() {
    return null;
  }
  @Get('/async') async later() {
    return { later: true };
  }
  @Post('/created') @HttpStatus(HttpCode.CREATED) created() {
    return { id: 1 };
  }
  @Post('/accepted') @HttpStatus(202) accepted() {
    return { queued: true };
  }
  @Get('/empty') empty() {}
  @Post('/empty-accepted') @HttpStatus(HttpCode.ACCEPTED) emptyAccepted() {}
  @Get('/html') html() {
    return new Response('<h1>hi</h1>', { status: 203, headers: { 'content-type': 'text/html; charset=utf-8', 'x-custom': 'yes' } });
  }
  @Get('/download') download() {
    return new Response('a,b\n1,2\n', {
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' },
    });
  }
  @Get('/stream') stream() {
    const encoder = new TextEncoder();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 3) return controller.close();
        controller.enqueue(encoder.encode(`chunk${sent++};`));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/plain' } });
  }
  @Get('/cookies') cookies() {
    const headers = new Headers({ 'content-type': 'text/plain' });
    headers.append('set-cookie', 'a=1; Path=/');
    headers.append('set-cookie', 'b=2; Path=/');
    return new Response('ok', { headers });
  }
  @Get('/http-error') httpError() {
    throw new HttpError(HttpCode.NOT_FOUND, 'User 7 not found');
  }
  @Get('/http-error-data') httpErrorData() {
    throw new HttpError(422, 'Invalid order', { field: 'qty' });
  }
  @Get('/async-http-error') async asyncHttpError() {
    throw new HttpError(409, 'Already exists');
  }
  @Get('/crash') crash() {
    throw new Error('database password is hunter2');
  }
  @Get('/crash-async') async crashAsync() {
    throw new Error('secret stack detail');
  }
  @Get('/throw-string') throwString() {
    throw 'plain string';
  }
  // typed `any`: a bigint in a declared return type is a build error (KILN150); this tests the run-time 500
  @Get('/unserialisable') unserialisable(): any {
    return { big: 10n };
  }
}

const config = {
  controllers: [ResponsesController],
  onError: (error: unknown, req: KilnRequest) => {
    logged.push({ error, path: req.path });
  },
};

const Responses = suite('responses');
Responses.before.each(() => {
  logged.length = 0;
});

const json = 'application/json; charset=utf-8';

Responses('a returned object is JSON with status 200', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/object');
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('content-type'), json);
    assert.is(reply.text, '{"name":"@kiln/core","tags":["a"]}');
  }),
);

Responses('a returned string, number and null are JSON too', () =>
  overBothTransports(config, async (send) => {
    assert.is((await send('/r/string')).text, '"hello"');
    assert.is((await send('/r/number')).text, '42');
    const nothing = await send('/r/null');
    assert.is(nothing.status, 200);
    assert.is(nothing.text, 'null');
  }),
);

Responses('an async handler is awaited', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/r/async')).json(), { later: true });
  }),
);

Responses('@HttpStatus replaces 200 (HttpCode member or number)', () =>
  overBothTransports(config, async (send) => {
    const created = await send('/r/created', { method: 'POST' });
    assert.is(created.status, 201);
    assert.equal(created.json(), { id: 1 });
    assert.is((await send('/r/accepted', { method: 'POST' })).status, 202);
  }),
);

Responses('returning nothing gives 204 with an empty body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/empty');
    assert.is(reply.status, 204);
    assert.is(reply.text, '');
    assert.is(reply.headers.get('content-type'), null);
  }),
);

Responses('returning nothing with @HttpStatus uses that status and an empty body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/empty-accepted', { method: 'POST' });
    assert.is(reply.status, 202);
    assert.is(reply.text, '');
  }),
);

Responses('a returned Response is sent as it is: status, headers, body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/html');
    assert.is(reply.status, 203);
    assert.is(reply.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.is(reply.headers.get('x-custom'), 'yes');
    assert.is(reply.text, '<h1>hi</h1>');
  }),
);

Responses('a download keeps Content-Type and Content-Disposition', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/download');
    assert.is(reply.headers.get('content-type'), 'text/csv');
    assert.is(reply.headers.get('content-disposition'), 'attachment; filename="report.csv"');
    assert.is(reply.text, 'a,b\n1,2\n');
  }),
);

Responses('a streamed Response body arrives whole', () =>
  overBothTransports(config, async (send) => {
    assert.is((await send('/r/stream')).text, 'chunk0;chunk1;chunk2;');
  }),
);

Responses('several Set-Cookie headers of a Response stay separate', () =>
  overBothTransports(config, async (send) => {
    assert.equal((await send('/r/cookies')).headers.getSetCookie(), ['a=1; Path=/', 'b=2; Path=/']);
  }),
);

Responses('an HttpError gives its status and the error body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/http-error');
    assert.is(reply.status, 404);
    assert.is(reply.headers.get('content-type'), json);
    assert.equal(reply.json(), { error: 'Not Found', message: 'User 7 not found' });
    const async = await send('/r/async-http-error');
    assert.is(async.status, 409);
    assert.equal(async.json(), { error: 'Conflict', message: 'Already exists' });
    assert.is(logged.length, 0);
  }),
);

Responses('an HttpError with data carries it in the body', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/http-error-data');
    assert.is(reply.status, 422);
    assert.equal(reply.json(), { error: 'Unprocessable Content', message: 'Invalid order', data: { field: 'qty' } });
  }),
);

Responses('a thrown Error gives 500 without its message or stack, and is logged once', () =>
  overBothTransports(config, async (send, transport) => {
    logged.length = 0;
    for (const path of ['/r/crash', '/r/crash-async']) {
      const reply = await send(path);
      assert.is(reply.status, 500);
      assert.equal(reply.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
      assert.not.match(reply.text, /hunter2|secret|stack|at /);
    }
    assert.is(logged.length, 2, `logged once per error over ${transport}`);
    assert.is((logged[0] as { path: string }).path, '/r/crash');
  }),
);

Responses('a thrown non-Error value gives 500 and is logged', () =>
  overBothTransports(config, async (send) => {
    logged.length = 0;
    const reply = await send('/r/throw-string');
    assert.is(reply.status, 500);
    assert.equal(reply.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
    assert.is((logged[0] as { error: unknown }).error, 'plain string');
  }),
);

Responses('a value JSON cannot serialise gives 500', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/r/unserialisable');
    assert.is(reply.status, 500);
    assert.equal(reply.json(), { error: 'Internal Server Error', message: 'Internal Server Error' });
  }),
);

Responses('a plain value is written with Content-Length in one piece', async () => {
  const server = await start(config);
  try {
    const reply = await request(server.base, '/r/object');
    assert.is(reply.headers.get('content-length'), String(Buffer.byteLength(reply.text)));
    assert.is(reply.headers.get('transfer-encoding'), null);
  } finally {
    await server.close();
  }
});

Responses.run();
