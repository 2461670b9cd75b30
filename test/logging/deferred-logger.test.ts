// The logger a server builds for itself is built on its first use: a server that has written
// nothing has not loaded pino (about 20 ms of every start-up on Node 26), and the first line is
// pino's, with the options checked when the server was created. Its own process (test/run.mjs):
// nothing else here loads pino first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import {
  Controller,
  Get,
  Inject,
  Injectable,
  KilnError,
  Logger,
  Param,
  Req,
  createServer,
  type KilnRequest,
  type LogDestination,
} from '@kiln/core';
import { request, start } from '../support/server.js';

/** Whether pino's main module is in Node's module cache (shared by every `require`). */
function pinoLoaded(): boolean {
  return Object.keys(createRequire(import.meta.url).cache).some((path) => /[\\/]node_modules[\\/]pino[\\/]pino\.js$/.test(path));
}

function memoryDestination(): LogDestination & { lines: Record<string, any>[] } {
  const lines: Record<string, any>[] = [];
  return { lines, write: (line: string) => void lines.push(JSON.parse(line)) };
}

@Injectable()
class Audit {
  constructor(@Inject(Logger) readonly log: Logger) {}
}

@Controller('/notes')
class NotesController {
  constructor(private readonly audit: Audit) {}

  @Get('/level')
  level() {
    return { level: this.audit.log.level, debugEnabled: this.audit.log.isLevelEnabled('debug') };
  }

  @Get('/:id')
  get(@Param('id') id: number, @Req() req: KilnRequest) {
    req.log.info({ noteId: id }, 'reading a note');
    this.audit.log.warn({ noteId: id }, 'audited');
    return { id };
  }
}

const test = suite('the server builds its logger on first use');

test('no pino before the first line; the first line is pino’s, through req.log and the injected Logger', async () => {
  const destination = memoryDestination();
  const { base, close } = await start({ controllers: [NotesController], logger: { destination } });
  try {
    assert.is(pinoLoaded(), false, 'a started server that has written nothing has not loaded pino');
    const reply = await request(base, '/notes/7');
    assert.is(reply.status, 200);
    assert.equal(reply.json(), { id: 7 });
    assert.is(pinoLoaded(), true, 'the first line loaded pino');
    assert.is(destination.lines.length, 2);
    const [reading, audited] = destination.lines;
    assert.equal(Object.keys(reading!), ['level', 'time', 'pid', 'hostname', 'reqId', 'noteId', 'msg']);
    assert.equal([reading!.level, reading!.noteId, reading!.msg, reading!.pid], [30, 7, 'reading a note', process.pid]);
    assert.equal([audited!.level, audited!.noteId, audited!.msg], [40, 7, 'audited']);
  } finally {
    await close();
  }
});

test('the level is the one asked for, before and after the logger is built; debug: true lowers it', async () => {
  const quiet = await start({ controllers: [NotesController], logger: { level: 'warn', destination: memoryDestination() } });
  const debug = await start({ controllers: [NotesController], debug: true, logger: { destination: memoryDestination() } });
  try {
    assert.equal((await request(quiet.base, '/notes/level')).json(), { level: 'warn', debugEnabled: false });
    assert.equal((await request(debug.base, '/notes/level')).json(), { level: 'debug', debugEnabled: true });
  } finally {
    await quiet.close();
    await debug.close();
  }
});

test('bad logger options are still refused by createServer, not at the first line', () => {
  for (const logger of [{ level: 'loud' }, 'info']) {
    try {
      createServer({ controllers: [NotesController], logger: logger as never });
      assert.unreachable(`logger ${JSON.stringify(logger)} was accepted`);
    } catch (error) {
      assert.instance(error, KilnError);
      assert.is((error as KilnError).code, 'KILN007');
    }
  }
});

test.run();
