#!/usr/bin/env node
// `node bench/typed-response-serializer.bench.mjs` (after `npm run bench -- http` has built the
// benchmark apps into bench/build, or `npm run build && npx tspc -p bench/tsconfig.kiln.json`)
// CPU cost of one answer's JSON text, in process, where a loaded machine disturbs ratios less
// than over HTTP: the serialisers Kiln's build wrote for scenario (e)'s `UserSummary[]` and
// route (b)'s inferred object (projection to the declared type, then JSON.stringify), against
// JSON.stringify of the unfiltered value (raw node:http) and fast-json-stringify from Fastify's
// response schema. Each call includes Buffer.byteLength, which the socket write needs (it
// flattens the string). `--rounds N` (default 3) repeats everything; each round's figures are printed.
import { parseArgs } from 'node:util';
import { bench, group, run, do_not_optimize } from 'mitata';
import fastJsonStringify from 'fast-json-stringify';
import { UsersController } from './build/kiln/http/servers/kiln/users-controller.js';
import { userList, userListSchema } from './build/kiln/http/user-list.js';

const { values: options } = parseArgs({ options: { rounds: { type: 'string', default: '3' } } });

const metadata = UsersController[Symbol.metadata];
const methods = metadata[Object.getOwnPropertySymbols(metadata).find((symbol) => symbol.description === 'kiln.methods')];
const kilnList = methods.get('list').serializer;
const kilnObject = methods.get('get').serializer;
const fastifyList = fastJsonStringify(userListSchema);
const routeB = { id: 42, active: true, tags: ['a', 'b'], requestId: 'abc' };

// Every writer gives the same text (the values hold exactly their declared properties).
for (const [name, text] of [
  ['kiln list', kilnList(userList)],
  ['fast-json-stringify', fastifyList(userList)],
]) {
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(userList)) throw new Error(`${name} writes another list`);
}
if (kilnObject(routeB) !== JSON.stringify(routeB)) throw new Error('kiln object writes another object');

const sized = (text) => do_not_optimize(Buffer.byteLength(text));

for (let round = 1; round <= Number(options.rounds); round++) {
  console.log(`\nround ${round}`);
  group(`(e) list of 100 users (${Buffer.byteLength(JSON.stringify(userList))} bytes)`, () => {
    bench('JSON.stringify, unfiltered (raw node:http)', () => sized(JSON.stringify(userList)));
    bench("Kiln's typed serialiser (projection + JSON.stringify)", () => sized(kilnList(userList)));
    bench("fast-json-stringify (Fastify's response schema)", () => sized(fastifyList(userList)));
  });
  group("(b) route (b)'s object { id, active, tags, requestId }", () => {
    bench('JSON.stringify, unfiltered', () => sized(JSON.stringify(routeB)));
    bench("Kiln's typed serialiser", () => sized(kilnObject(routeB)));
  });
  await run();
}
