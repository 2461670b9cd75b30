// env<T>(): the reader the build writes for a configuration interface, run on given sources:
// conversions (number, boolean, enums, dates, comma-separated arrays, typia tags), one KILN051
// error listing every missing or invalid variable by name, values of secret-named variables never
// shown, and the configuration injected as a token into a controller answering over HTTP.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import type { tags } from 'typia';
import { Controller, createServer, env, Get, Inject, InjectionToken, isSecretName, type EnvSource } from '@kiln/core';
import { request, start } from '../support/server.js';

enum Mode {
  Live = 'live',
  Test = 'test',
}

interface AppConfig {
  PORT: number;
  DEBUG: boolean;
  LOG_LEVEL?: 'debug' | 'info' | 'warn';
  MODE: Mode;
  ALLOWED_ORIGINS: string[];
  RETRIES?: (number & tags.Type<'uint32'>)[];
  REDIS_URL: string & tags.Format<'uri'>;
  API_TOKEN: string;
  DB_PASSWORD: string & tags.MinLength<12>;
  STARTS?: Date;
}

const valid: Record<string, string> = {
  PORT: '8080',
  DEBUG: 'false',
  MODE: 'live',
  ALLOWED_ORIGINS: 'https://a.example, https://b.example',
  REDIS_URL: 'redis://127.0.0.1:6379',
  API_TOKEN: 'tok_1234567890',
  DB_PASSWORD: 'correct horse battery',
};

function refusal(source: EnvSource): { code?: string; message: string } {
  try {
    env<AppConfig>(source);
  } catch (error) {
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('env<AppConfig>() accepted the source');
}

const Env = suite('env<T>()');

Env('every variable converted with the parameters’ rules', () => {
  const config = env<AppConfig>({ ...valid, LOG_LEVEL: 'warn', RETRIES: '1,2, 3', STARTS: '2026-01-02T03:04:05Z', DEBUG: '1' });
  assert.equal(config, {
    PORT: 8080,
    DEBUG: true,
    LOG_LEVEL: 'warn',
    MODE: Mode.Live,
    ALLOWED_ORIGINS: ['https://a.example', 'https://b.example'],
    RETRIES: [1, 2, 3],
    REDIS_URL: 'redis://127.0.0.1:6379',
    API_TOKEN: 'tok_1234567890',
    DB_PASSWORD: 'correct horse battery',
    STARTS: new Date('2026-01-02T03:04:05Z'),
  });
  assert.ok(Object.isFrozen(config));
  // optional variables may be absent, and an empty value counts as absent
  const minimal = env<AppConfig>({ ...valid, LOG_LEVEL: '' });
  assert.is(minimal.LOG_LEVEL, undefined);
  assert.not.ok('RETRIES' in minimal);
});

Env('one KILN051 error lists every missing and invalid variable by name', () => {
  const { code, message } = refusal({ PORT: 'eighty', DEBUG: 'yes', MODE: 'staging', LOG_LEVEL: 'loud', RETRIES: '1,x', REDIS_URL: 'x' });
  assert.is(code, 'KILN051');
  assert.is(
    message,
    [
      'The environment does not give a valid AppConfig (9 problems):',
      '  - PORT: expected a number, got "eighty"',
      '  - DEBUG: expected true, false, 1 or 0, got "yes"',
      '  - LOG_LEVEL: expected one of "debug", "info", "warn", got "loud"',
      '  - MODE: expected one of "live", "test", got "staging"',
      '  - ALLOWED_ORIGINS: missing (expected a comma-separated list of strings)',
      '  - RETRIES: expected a comma-separated list of numbers, got "1,x"',
      '  - REDIS_URL: expected string & Format<"uri">, got "x"',
      '  - API_TOKEN: missing (expected a string)',
      '  - DB_PASSWORD: missing (expected a string)',
    ].join('\n'),
  );
});

Env('typia tags are checked after conversion, and secret values are never shown', () => {
  const { code, message } = refusal({ ...valid, REDIS_URL: 'not a uri', DB_PASSWORD: 'short', RETRIES: '1,-2' });
  assert.is(code, 'KILN051');
  assert.match(message, /^The environment does not give a valid AppConfig \(3 problems\):\n/);
  assert.match(message, / {2}- REDIS_URL: expected string & Format<"uri">, got "not a uri"/);
  assert.match(message, / {2}- DB_PASSWORD: expected string & MinLength<12>, got a value \(not shown: the name says it is a secret\)/);
  assert.match(message, / {2}- RETRIES: expected number & Type<"uint32">, got /);
  assert.not.match(message, /short/);
  const token = refusal({ ...valid, API_TOKEN: '', PORT: 'x', DB_PASSWORD: 'hunter2-but-long' });
  assert.not.match(token.message, /hunter2/);
});

Env('for every secret-named variable and every value, the value never reaches the message', () => {
  interface Secrets {
    SESSION_SECRET: number;
    GITHUB_TOKEN: number;
    ADMIN_PASSWORD: number;
    STRIPE_API_KEY: number;
  }
  fc.assert(
    fc.property(
      fc.constantFrom('SESSION_SECRET', 'GITHUB_TOKEN', 'ADMIN_PASSWORD', 'STRIPE_API_KEY'),
      fc.string({ minLength: 3 }).filter((text) => !Number.isFinite(Number(text)) && text.trim() !== '' && !/[,"\\]/.test(text)),
      (name, value) => {
        const source: Record<string, string> = {
          SESSION_SECRET: '1',
          GITHUB_TOKEN: '1',
          ADMIN_PASSWORD: '1',
          STRIPE_API_KEY: '1',
          [name]: value,
        };
        try {
          env<Secrets>(source);
          return false;
        } catch (error) {
          const message = (error as Error).message;
          return (
            message ===
            `The environment does not give a valid Secrets (1 problem):\n  - ${name}: expected a number, got a value (not shown: the name says it is a secret)`
          );
        }
      },
    ),
  );
  assert.ok(isSecretName('jwtSigningKey') && isSecretName('DB_PASSWD') && !isSecretName('PORT'));
});

Env('process.env is the default source', () => {
  interface FromProcess {
    KILN_ENV_TEST_PORT: number;
  }
  process.env.KILN_ENV_TEST_PORT = '4321';
  try {
    assert.equal(env<FromProcess>(), { KILN_ENV_TEST_PORT: 4321 });
  } finally {
    delete process.env.KILN_ENV_TEST_PORT;
  }
  assert.match(refusal({}).message, /PORT: missing/);
});

const CONFIG = new InjectionToken<AppConfig>('AppConfig');

@Controller('/config')
class ConfigController {
  constructor(@Inject(CONFIG) private readonly config: AppConfig) {}
  @Get('/port')
  port() {
    return { port: this.config.PORT, mode: this.config.MODE };
  }
}

Env('injected as a token: a controller answers with the typed configuration over HTTP', async () => {
  const server = await start({
    controllers: [ConfigController],
    injections: [{ token: CONFIG, factory: () => env<AppConfig>(valid) }],
  });
  try {
    const reply = await request(server.base, '/config/port');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { port: 8080, mode: 'live' });
  } finally {
    await server.close();
  }
});

Env('a bad environment in an injection factory stops createServer with the whole list', () => {
  assert.throws(
    () =>
      createServer({
        controllers: [ConfigController],
        injections: [{ token: CONFIG, factory: () => env<AppConfig>({ ...valid, PORT: 'x' }) }],
      }),
    (error: Error & { code?: string }) =>
      error.code === 'KILN020' &&
      error.message.includes(
        'the factory of InjectionToken(AppConfig) threw: The environment does not give a valid AppConfig (1 problem):\n  - PORT: expected a number, got "x"',
      ),
  );
});

Env.run();
