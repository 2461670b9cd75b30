// DurableObjectStore under workerd, over real HTTP on 127.0.0.1: two isolates (two services of one
// Worker) share each key's count through its Durable Object, with both algorithms, `cost`,
// `blockDuration` and the draft-8 headers.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DurableObjectStore, RateLimitError } from '@kiln/rate-limit';
import { get } from './support/server.js';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const installer = join(root, 'test', 'runtimes', 'install-runtimes.mjs');
const { runtimeBinary } = (await import(installer)) as { runtimeBinary: (name: string) => string };
const workerd = runtimeBinary('workerd');
const available = existsSync(workerd);
if (!available) console.log(`durable-object-store: no workerd at ${workerd}: tests skipped`);
const workerdTest = available ? test : test.skip;

let child: ChildProcess | undefined;
let output = '';
const bases: Record<string, string> = {};

/** The Worker bundled as deployed, and workerd serving it twice (services a and b) with one Durable Object namespace. */
test.before(async () => {
  if (!available) return;
  const folder = join(root, 'build', 'rate-limit-durable-object');
  mkdirSync(folder, { recursive: true });
  const { build } = await import('esbuild');
  await build({
    entryPoints: [fileURLToPath(new URL('./support/durable-object-worker.js', import.meta.url))],
    outfile: join(folder, 'worker.mjs'),
    bundle: true,
    platform: 'browser',
    external: ['node:*'],
    format: 'esm',
    target: 'es2022',
    logLevel: 'warning',
  });
  const worker = (binding: string) => `(
  modules = [ (name = "worker", esModule = embed "worker.mjs") ],
  compatibilityDate = "2026-11-01",
  bindings = [ (name = "RATE_LIMITER", durableObjectNamespace = ${binding}) ],
  ${binding === '"RateLimiterDurableObject"' ? 'durableObjectNamespaces = [ (className = "RateLimiterDurableObject", uniqueKey = "kiln-rate-limit-test") ],\n  durableObjectStorage = (inMemory = void),' : ''}
)`;
  writeFileSync(
    join(folder, 'workerd.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "a", worker = .a), (name = "b", worker = .b) ],
  sockets = [ (name = "a", address = "127.0.0.1:0", http = (), service = "a"), (name = "b", address = "127.0.0.1:0", http = (), service = "b") ],
);
const a :Workerd.Worker = ${worker('"RateLimiterDurableObject"')};
# a second isolate, bound to the objects of service a
const b :Workerd.Worker = ${worker('(className = "RateLimiterDurableObject", serviceName = "a")')};
`,
  );
  child = spawn(workerd, ['serve', 'workerd.capnp', '--control-fd=3'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let control = '';
  await new Promise<void>((resolve, reject) => {
    (child!.stdio[3] as NodeJS.ReadableStream).on('data', (chunk) => {
      control += chunk;
      for (const line of control.split('\n')) {
        const event = line.startsWith('{') ? (JSON.parse(line) as { event?: string; socket?: string; port?: number }) : undefined;
        if (event?.event === 'listen' && event.socket !== undefined) bases[event.socket] = `http://127.0.0.1:${event.port}`;
      }
      if (bases.a !== undefined && bases.b !== undefined) resolve();
    });
    child!.on('exit', (code) => reject(new Error(`workerd exited with ${code} before serving:\n${output}`)));
  });
});

test.after(() => {
  child?.kill('SIGKILL');
});

/** Status, Retry-After and the draft-8 fields (t= left out where it is only checked apart). */
async function ask(base: string, path: string, key: string, cost = 1) {
  const r = await get(base, path, { 'x-key': key, 'x-cost': String(cost) });
  return {
    status: r.status,
    retryAfter: r.headers.get('retry-after'),
    policy: r.headers.get('ratelimit-policy'),
    remaining: r.headers.get('ratelimit')?.match(/;r=(\d+)/)?.[1],
    seconds: Number(r.headers.get('ratelimit')?.match(/;t=(\d+)/)?.[1]),
    body: r.text,
  };
}

for (const path of ['/log', '/counter']) {
  workerdTest(`${path}: two isolates share each key's count; cost weighs; the refusal blocks the key for blockDuration`, async () => {
    const key = `client-${path.slice(1)}`;
    const first = await ask(bases.a!, path, key, 2);
    assert.equal([first.status, first.policy, first.remaining], [200, '"3-in-60s";q=3;w=60', '1'], output);
    // the other isolate sees the units counted by the first
    const second = await ask(bases.b!, path, key);
    assert.equal([second.status, second.remaining], [200, '0']);
    const refused = await ask(bases.a!, path, key);
    assert.is(refused.status, 429);
    assert.is(refused.remaining, '0');
    assert.match(refused.retryAfter ?? '', /^(119|120)$/, 'Retry-After is the 2-minute block');
    assert.ok(refused.seconds >= 119 && refused.seconds <= 120, `t=${refused.seconds}`);
    assert.equal(JSON.parse(refused.body), {
      error: 'Too Many Requests',
      message: `Rate limit exceeded. Try again in ${refused.retryAfter} seconds.`,
    });
    // blocked in both isolates, a free request too; another key is untouched
    assert.is((await ask(bases.b!, path, key)).status, 429);
    assert.is((await ask(bases.b!, path, key, 0)).status, 429);
    assert.equal((await ask(bases.b!, path, `${key}-other`)).remaining, '2');
  });
}

test('DurableObjectStore needs a namespace binding (KILN213)', () => {
  for (const options of [{}, { namespace: {} }, { namespace: { idFromName() {}, get() {} }, prefix: 1 }]) {
    try {
      new DurableObjectStore(options as never);
      assert.unreachable(JSON.stringify(options));
    } catch (error) {
      assert.instance(error, RateLimitError);
      assert.is((error as RateLimitError).code, 'KILN213');
    }
  }
});

test.run();
