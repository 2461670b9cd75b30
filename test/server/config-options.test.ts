// createServer checks every option it reads once, at start-up (src/resolved-config.ts): a bad limit
// is a KILN007 naming the option and the value, never a surprise at listen() or a silently ignored one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { Controller, Get, createServer, KilnError, type KilnConfig } from '@kiln/core';

@Controller('/config')
class ConfigController {
  @Get('/') ok() {
    return { ok: true };
  }
}

const Config = suite('server config');

function refusal(config: Partial<KilnConfig>): string {
  try {
    createServer({ controllers: [ConfigController], ...config });
  } catch (error) {
    assert.instance(error, KilnError);
    assert.is((error as KilnError).code, 'KILN007');
    return (error as KilnError).message;
  }
  assert.unreachable(`createServer accepted ${JSON.stringify(config)}`);
  return '';
}

const timeouts = ['headersTimeout', 'requestTimeout', 'keepAliveTimeout', 'shutdownTimeout'] as const;
const sizes = [
  ['maxUrlLength', 1],
  ['maxHeaderSize', 1],
] as const;

Config('each timeout must be a whole number of milliseconds a timer can hold, and names the bad value', () => {
  for (const option of timeouts) {
    for (const bad of [-1, 1.5, '100', Number.NaN, 2 ** 31, true]) {
      // headersTimeout alone past requestTimeout's default is the other refusal below: give requestTimeout room.
      const config = { [option]: bad, ...(option === 'headersTimeout' ? { requestTimeout: 0 } : {}) } as Partial<KilnConfig>;
      assert.is(
        refusal(config),
        `${option} must be a whole number of milliseconds from 0 to 2147483647, got ${String(bad)}`,
        `${option}: ${String(bad)}`,
      );
    }
  }
});

Config('maxUrlLength and maxHeaderSize must be whole numbers of at least 1, and name the bad value', () => {
  for (const [option, least] of sizes) {
    for (const bad of [0, -1, 2.5, '8192', Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.is(
        refusal({ [option]: bad } as Partial<KilnConfig>),
        `${option} must be a whole number of at least ${least}, got ${String(bad)}`,
      );
    }
  }
});

Config('for every value that is not a whole number in range, each of the six options is refused with its name', () => {
  const notWhole = fc.oneof(fc.double({ noInteger: true }), fc.integer({ max: -1 }), fc.string(), fc.boolean(), fc.constant(Number.NaN));
  fc.assert(
    fc.property(fc.constantFrom(...timeouts, 'maxUrlLength', 'maxHeaderSize'), notWhole, (option, bad) => {
      const message = refusal({ [option]: bad, requestTimeout: option === 'requestTimeout' ? bad : 0 } as Partial<KilnConfig>);
      return message.startsWith(`${option} must be a whole number`) && message.endsWith(`got ${String(bad)}`);
    }),
  );
});

Config('headersTimeout may not be longer than requestTimeout, unless requestTimeout is 0 (off)', () => {
  assert.is(
    refusal({ headersTimeout: 40_000 }),
    'headersTimeout (40000 ms) must not be longer than requestTimeout (30000 ms), which covers the headers too; 0 turns requestTimeout off',
  );
  createServer({ controllers: [ConfigController], headersTimeout: 40_000, requestTimeout: 0 });
  createServer({ controllers: [ConfigController], headersTimeout: 30_000, requestTimeout: 30_000 });
});

Config('null, like undefined, leaves an option at its default', () => {
  createServer({ controllers: [ConfigController], headersTimeout: null as unknown as number, maxUrlLength: null as unknown as number });
});

Config('0 is a valid timeout, the largest timer delay too', () => {
  for (const option of timeouts) {
    createServer({ controllers: [ConfigController], [option]: 0 });
    createServer({ controllers: [ConfigController], [option]: 2 ** 31 - 1, ...(option === 'headersTimeout' ? { requestTimeout: 0 } : {}) });
  }
});

Config('the resolved limits reach the Node listener: keepAliveTimeout in its Keep-Alive header, maxHeaderSize as a 431', async () => {
  const app = createServer({ controllers: [ConfigController], keepAliveTimeout: 7_000, maxHeaderSize: 2048 });
  const { port } = await app.listen(0, '127.0.0.1');
  try {
    const ok = await fetch(`http://127.0.0.1:${port}/config`);
    assert.is(ok.status, 200);
    assert.is(ok.headers.get('keep-alive'), 'timeout=7');
    const tooLarge = await fetch(`http://127.0.0.1:${port}/config`, { headers: { 'x-padding': 'x'.repeat(4096) } });
    assert.is(tooLarge.status, 431);
  } finally {
    await app.close();
  }
});

Config('maxUrlLength is applied as resolved: a longer target answers 414', async () => {
  const app = createServer({ controllers: [ConfigController], maxUrlLength: 16 });
  assert.is((await app.fetch(new Request('http://localhost/config'))).status, 200);
  const long = await app.fetch(new Request('http://localhost/config?padding=xxxxxxxx'));
  assert.is(long.status, 414);
  await app.close();
});

Config.run();
