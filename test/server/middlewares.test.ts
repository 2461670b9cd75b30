import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  Controller,
  Get,
  Post,
  Middleware,
  HttpError,
  compiledBinder,
  createServer,
  routeRequestParamDecorator,
  type KilnRequest,
  type MiddlewareFunction,
} from '@kiln/core';
import { rateLimit } from '@kiln/rate-limit';
import { overBothTransports } from '../support/server.js';

declare module '@kiln/core' {
  interface KilnRequest {
    trace?: string[];
  }
}

const trace =
  (label: string): MiddlewareFunction =>
  (req) => {
    (req.trace ??= []).push(label);
  };

@Middleware()
class TagClassMiddleware {
  // What @kiln/core/transformer generates for `use(@Req() req, @Header('x-token') token: string | null)`.
  @compiledBinder((req: KilnRequest) => [req, req.headers.get('x-token')])
  use(req: KilnRequest, token: string | null) {
    req.trace!.push(`class:${token}`);
  }
}

const stopWithValue: MiddlewareFunction = (req) => (req.headers.get('x-stop') === 'value' ? { stoppedBy: 'middleware' } : undefined);
const stopWithResponse: MiddlewareFunction = (req) =>
  req.headers.get('x-stop') === 'response' ? new Response('teapot', { status: 418, headers: { 'content-type': 'text/plain' } }) : undefined;
const addHeaderAfter: MiddlewareFunction = async (_req, next) => {
  const response = await next();
  response.headers.set('x-after', 'set-by-middleware');
  return response;
};
const recordHeader: MiddlewareFunction = (req) => {
  req.setResponseHeader('x-recorded', 'yes');
};
const recordOuter: MiddlewareFunction = (req) => {
  req.setResponseHeader('X-Limit', 'outer');
  req.setResponseHeader('Set-Cookie', 'a=1');
};
const recordInner: MiddlewareFunction = (req) => {
  req.setResponseHeader('x-limit', 'inner');
  req.setResponseHeader('set-cookie', 'b=2');
};
const denyAll: MiddlewareFunction = () => {
  throw new HttpError(403, 'Not for you');
};

@Controller('/m', trace('controller'), TagClassMiddleware)
class TracedController {
  @Get('/order', trace('route-1'), trace('route-2'))
  @compiledBinder((req: KilnRequest) => [req])
  order(req: KilnRequest) {
    return { trace: req.trace };
  }

  @Get('/stop', stopWithValue, stopWithResponse)
  @compiledBinder((req: KilnRequest) => [req])
  stop(req: KilnRequest) {
    return { reached: 'handler', trace: req.trace };
  }

  @Get('/after', addHeaderAfter) after() {
    return { handler: true };
  }
  @Get('/after-error', addHeaderAfter) afterError() {
    throw new HttpError(404, 'gone');
  }
  @Get('/recorded', recordHeader) recorded() {
    return { ok: true };
  }
  @Get('/recorded-response', recordHeader) recordedResponse() {
    return new Response('raw', { status: 202 });
  }
  @Get('/recorded-error', recordHeader, denyAll) recordedError() {
    return 'never';
  }
  @Get('/recorded-twice', recordOuter, recordInner) recordedTwice() {
    return 'twice';
  }
}

const config = { controllers: [TracedController], middlewares: [trace('app')] };
const Middlewares = suite('middlewares');

Middlewares('run in order: application, controller (function then class), route', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/order', { headers: { 'x-token': 't1' } });
    assert.equal(reply.json(), { trace: ['app', 'controller', 'class:t1', 'route-1', 'route-2'] });
  }),
);

Middlewares('a returned value ends the chain and is sent as JSON 200', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/stop', { headers: { 'x-stop': 'value' } });
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { stoppedBy: 'middleware' });
  }),
);

Middlewares('a returned Response ends the chain and is sent as it is', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/stop', { headers: { 'x-stop': 'response' } });
    assert.is(reply.status, 418);
    assert.is(reply.text, 'teapot');
  }),
);

Middlewares('returning undefined continues to the handler', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/stop');
    assert.equal(reply.json(), { reached: 'handler', trace: ['app', 'controller', 'class:null'] });
  }),
);

Middlewares('await next() gives the downstream Response, whose headers can be set', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/after');
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('x-after'), 'set-by-middleware');
    assert.equal(reply.json(), { handler: true });
  }),
);

Middlewares('await next() gives an error Response when the handler throws', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/after-error');
    assert.is(reply.status, 404);
    assert.is(reply.headers.get('x-after'), 'set-by-middleware');
    assert.equal(reply.json(), { error: 'Not Found', message: 'gone' });
  }),
);

Middlewares('setResponseHeader adds a header to a plain value, a Response and an error', () =>
  overBothTransports(config, async (send) => {
    const plain = await send('/m/recorded');
    assert.is(plain.headers.get('x-recorded'), 'yes');
    assert.equal(plain.json(), { ok: true });
    const response = await send('/m/recorded-response');
    assert.is(response.status, 202);
    assert.is(response.headers.get('x-recorded'), 'yes');
    assert.is(response.text, 'raw');
    const error = await send('/m/recorded-error');
    assert.is(error.status, 403);
    assert.is(error.headers.get('x-recorded'), 'yes');
    assert.equal(error.json(), { error: 'Forbidden', message: 'Not for you' });
  }),
);

Middlewares('setResponseHeader replaces an earlier value of the same name, except Set-Cookie', () =>
  overBothTransports(config, async (send) => {
    const reply = await send('/m/recorded-twice');
    assert.is(reply.headers.get('x-limit'), 'inner');
    assert.equal(reply.headers.getSetCookie(), ['a=1', 'b=2']);
  }),
);

Middlewares('setResponseHeader rejects line breaks', () => {
  let caught: unknown;
  const probe: MiddlewareFunction = (req) => {
    try {
      req.setResponseHeader('x-a', 'b\r\nset-cookie: evil=1');
    } catch (error) {
      caught = error;
    }
    return { done: true };
  };
  @Controller('/p')
  class Probe {
    @Get('/') index() {
      return 1;
    }
  }
  return createServer({ controllers: [Probe], middlewares: [probe] })
    .fetch(new Request('http://localhost/p'))
    .then(() => assert.instance(caught, TypeError));
});

Middlewares('a class middleware without @Middleware() fails at createServer', () => {
  class NotMarked {
    use() {}
  }
  @Controller('/n')
  class N {
    @Get('/') index() {
      return 1;
    }
  }
  assert.throws(
    () => createServer({ controllers: [N], middlewares: [NotMarked] }),
    /class middleware NotMarked must be marked with @Middleware\(\)/,
  );
});

Middlewares('a class middleware whose use() has parameters but no binder fails at createServer', () => {
  @Middleware()
  class Unbound {
    use(_token: string) {}
  }
  @Controller('/n')
  class N {
    @Get('/') index() {
      return 1;
    }
  }
  assert.throws(
    () => createServer({ controllers: [N], middlewares: [Unbound] }),
    /Middleware Unbound\.use has no compiled binder: @kiln\/core\/transformer did not run/,
  );
});

Middlewares('a class middleware without use() fails at createServer with KILN010', () => {
  @Middleware()
  class NoUse {
    handle() {}
  }
  class Unmarked {
    run() {}
  }
  @Controller('/n')
  class N {
    @Get('/') index() {
      return 1;
    }
  }
  for (const middleware of [NoUse, Unmarked]) {
    assert.throws(
      () => createServer({ controllers: [N], middlewares: [middleware as never] }),
      (error: Error & { code?: string }) =>
        error.code === 'KILN010' && error.message === `middlewares[0]: class middleware ${middleware.name} has no use() method`,
    );
  }
});

// Application middlewares run for every request; controller and route ones only for their routes.
const seen: string[] = [];
const logEvery: MiddlewareFunction = async (req, next) => {
  const response = await next();
  seen.push(`${req.method} ${req.path} -> ${response.status} route=${req.route?.path ?? 'none'}`);
  return response;
};
const controllerOnly: MiddlewareFunction = (req) => {
  seen.push(`controller ${req.path}`);
};
const answerTeapotPaths: MiddlewareFunction = (req) =>
  req.route === undefined && req.path === '/teapot' ? { answeredBy: 'middleware' } : undefined;

@Controller('/g', controllerOnly)
class GlobalController {
  @Get('/items') items() {
    return ['a'];
  }
  @Post('/items') add() {
    return { added: true };
  }
}

const globalConfig = { controllers: [GlobalController], middlewares: [logEvery, answerTeapotPaths] };

Middlewares('an application middleware sees and logs a 404 and a 405; controller middlewares do not run for them', () =>
  overBothTransports(globalConfig, async (send, transport) => {
    seen.length = 0;
    assert.is((await send('/g/nowhere')).status, 404);
    assert.is((await send('/g/items', { method: 'DELETE' })).status, 405);
    assert.is((await send('/g/items')).status, 200);
    assert.equal(
      seen,
      [
        'GET /g/nowhere -> 404 route=none',
        'DELETE /g/items -> 405 route=none',
        'controller /g/items',
        'GET /g/items -> 200 route=/g/items',
      ],
      transport,
    );
  }),
);

Middlewares('an application middleware runs for OPTIONS and sees the 204 with Allow', () =>
  overBothTransports(globalConfig, async (send) => {
    seen.length = 0;
    const reply = await send('/g/items', { method: 'OPTIONS' });
    assert.is(reply.status, 204);
    assert.is(reply.headers.get('allow'), 'GET, POST, HEAD, OPTIONS');
    assert.equal(seen, ['OPTIONS /g/items -> 204 route=none']);
  }),
);

Middlewares('an application middleware may answer a request no route took', () =>
  overBothTransports(globalConfig, async (send) => {
    const reply = await send('/teapot');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { answeredBy: 'middleware' });
  }),
);

Middlewares('a global rateLimit() counts 404s', () => {
  const limited = {
    controllers: [GlobalController],
    middlewares: [rateLimit({ max: 2, keyGenerator: (req) => req.headers.get('x-client') ?? '' })],
  };
  return overBothTransports(
    limited,
    async (send, transport) => {
      const headers = { 'x-client': transport };
      assert.is((await send('/g/nowhere', { headers })).status, 404);
      const second = await send('/g/other', { headers });
      assert.is(second.status, 404);
      assert.is(second.headers.get('ratelimit-remaining'), '0');
      assert.is((await send('/g/items', { headers })).status, 429);
    },
    { identical: false },
  ); // RateLimit-Reset may fall in another second on the second run
});

Middlewares('a wrapper middleware (...args) => mw(...args) gets next and can use it', () => {
  const addHeader: MiddlewareFunction = async (_req, next) => {
    const response = await next();
    response.headers.set('x-wrapped', 'yes');
    return response;
  };
  const wrapper: MiddlewareFunction = (...args) => addHeader(...args);
  @Controller('/w')
  class Wrapped {
    @Get('/') index() {
      return { ok: true };
    }
  }
  return overBothTransports({ controllers: [Wrapped], middlewares: [wrapper] }, async (send) => {
    const reply = await send('/w');
    assert.is(reply.status, 200);
    assert.is(reply.headers.get('x-wrapped'), 'yes');
    assert.equal(reply.json(), { ok: true });
  });
});

Middlewares('calling next() twice gives the same Response and runs the handler once', () => {
  let runs = 0;
  const twice: MiddlewareFunction = async (_req, next) => {
    const first = await next();
    const second = await next();
    return first === second ? first : new Response('different', { status: 500 });
  };
  @Controller('/t')
  class Twice {
    @Get('/') index() {
      runs++;
      return { runs };
    }
  }
  return overBothTransports({ controllers: [Twice], middlewares: [twice] }, async (send, transport) => {
    runs = 0;
    const reply = await send('/t');
    assert.is(reply.status, 200, transport);
    assert.equal(reply.json(), { runs: 1 });
  });
});

// A property the application added to KilnRequest by declaration merging (`trace` above) is one
// routeRequestParamDecorator accepts, typed as merged: a middleware sets it, the handler receives it.
const Trace = routeRequestParamDecorator('trace');

@Controller('/merged', trace('controller'))
class MergedPropertyController {
  @Get('/')
  read(@Trace() seen?: string[]) {
    return { seen: seen ?? null };
  }
}

Middlewares('routeRequestParamDecorator takes a property added by declaration merging, with its merged type', () =>
  overBothTransports({ controllers: [MergedPropertyController] }, async (send) => {
    const reply = await send('/merged');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { seen: ['controller'] });
  }),
);

Middlewares.run();
