// The application logger on its own: pino when installed, Kiln's JSON writer otherwise (a copy of
// the runtime where pino cannot be found), and the writer's line format, levels and children.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLogger, type LogDestination, type Logger } from '@kiln/core';
import { root } from '../transformer/support/compile-fixture.js';

function memoryDestination(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

const test = suite('createLogger');

test('pino is used when installed; a copy of the runtime without it falls back to the JSON writer', async () => {
  const installed = createLogger({ destination: memoryDestination() });
  assert.type((installed as unknown as { flush?: unknown }).flush, 'function', 'a pino logger');
  const dir = mkdtempSync(join(tmpdir(), 'kiln-no-pino-'));
  cpSync(join(root, 'dist', 'src'), join(dir, 'dist', 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
  const isolated = await import(pathToFileURL(join(dir, 'dist', 'src', 'index.js')).href);
  const destination = memoryDestination();
  const fallback: Logger = isolated.createLogger({ destination });
  assert.is((fallback as unknown as { flush?: unknown }).flush, undefined, "Kiln's JSON writer");
  fallback.info({ user: 7 }, 'signed in');
  assert.equal(Object.keys(destination.lines[0]!), ['level', 'time', 'pid', 'hostname', 'user', 'msg']);
  // The same line from both, but for the time.
  const both = [createLogger({ destination: memoryDestination() }), fallback].map((logger) => {
    const into = memoryDestination();
    const made = logger === fallback ? isolated.createLogger({ destination: into }) : createLogger({ destination: into });
    made.child({ job: 'import' }).warn({ rows: 3 }, 'imported %d of %s', 3, 'five');
    const { time, ...rest } = into.lines[0]!;
    assert.type(time, 'number');
    return rest;
  });
  assert.equal(both[0], both[1]);
  assert.equal(both[1], { level: 40, pid: process.pid, hostname: both[1]!.hostname, job: 'import', rows: 3, msg: 'imported 3 of five' });
});

test('JSON writer: levels filter, the level can be changed, children share it and add their bindings', () => {
  const destination = memoryDestination();
  const log = createLogger({ pino: false, level: 'warn', destination });
  log.info('hidden');
  log.warn('shown');
  assert.equal([log.isLevelEnabled('info'), log.isLevelEnabled('error'), log.isLevelEnabled('silent')], [false, true, false]);
  const child = log.child({ a: 1 }).child({ b: 'two' });
  log.level = 'trace';
  child.trace({ c: null }, 'deep');
  log.level = 'silent';
  log.fatal('nothing');
  assert.equal(
    destination.lines.map(({ time: _time, pid: _pid, hostname: _host, ...line }) => line),
    [
      { level: 40, msg: 'shown' },
      { level: 10, a: 1, b: 'two', c: null, msg: 'deep' },
    ],
  );
  assert.throws(() => {
    log.level = 'loud';
  }, /Unknown log level 'loud'/);
});

test('JSON writer: errors under err, hostile fields never throw, a failing destination loses the line only', () => {
  const destination = memoryDestination();
  const log = createLogger({ pino: false, destination });
  const cause = new Error('root cause');
  const error = Object.assign(new RangeError('outer', { cause }), { code: 'E_OUT' });
  log.error(error);
  log.error(error, 'while saving');
  const circular: Record<string, unknown> = { name: 'loop' };
  circular.self = circular;
  log.info({ circular, big: 10n, fn: () => 1, missing: undefined, '"quoted"': 'key' }, '100%% sure %s', 'now', 'extra');
  const [plain, described, hostile] = destination.lines;
  assert.equal(
    [plain!.msg, plain!.err.type, plain!.err.message, plain!.err.code, plain!.err.cause.message],
    ['outer', 'RangeError', 'outer', 'E_OUT', 'root cause'],
  );
  assert.is(described!.msg, 'while saving');
  assert.equal(hostile!.circular, { name: 'loop', self: '[Circular]' });
  assert.equal(
    [hostile!.big, hostile!.fn, 'missing' in hostile!, hostile!['"quoted"'], hostile!.msg],
    ['10', undefined, false, 'key', '100% sure now'],
  );
  const broken = createLogger({
    pino: false,
    destination: {
      write() {
        throw new Error('disk full');
      },
    },
  });
  broken.info('lost');
});

test.run();
