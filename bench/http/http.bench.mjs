// HTTP throughput: every server, every scenario, in rounds. Each round visits the servers in a
// rotated order (so none is always first or last), checks each server's answers, warms it up,
// then measures. Ratios are only ever taken between measurements of the same round.
import { setTimeout as sleep } from 'node:timers/promises';
import { scenarios } from './scenarios.mjs';
import { servers } from './servers.mjs';
import { startServer } from './server-process.mjs';
import { checkServer } from './check-server.mjs';
import { load, loadGeneratorName } from './load-generator.mjs';

const port = 3410;

async function measureScenarios(server, rateLimited, chosen, { round, seconds, warmupSeconds, log, measurements, unavailable }) {
  let running;
  try {
    running = await startServer(server, port, { rateLimited });
  } catch (error) {
    if (!rateLimited) throw error;
    unavailable[server.name] = String(error.message).split('\n')[0];
    log(`  ${server.name} (d): unavailable: ${unavailable[server.name]}`);
    return;
  }
  try {
    await checkServer(server, port, chosen);
    for (const scenario of chosen) {
      await load(port, scenario.request, warmupSeconds);
      const result = await load(port, scenario.request, seconds);
      if (result.errors > 0) throw new Error(`${server.name} ${scenario.title}: ${result.errors} bad answers under load`);
      measurements.push({ round, server: server.name, scenario: scenario.id, ...result });
      log(`  ${server.name.padEnd(30)} ${scenario.id}  ${Math.round(result.rps).toString().padStart(7)} req/s  p99 ${result.p99Ms.toFixed(2)} ms`);
    }
  } finally {
    await running.stop();
  }
  await sleep(200);
}

export async function runHttp({ rounds = 3, seconds = 5, warmupSeconds = 2, log = console.log, serverFilter } = {}) {
  const measurements = [];
  const unavailable = {};
  const plain = scenarios.filter((scenario) => !scenario.rateLimited);
  const limited = scenarios.filter((scenario) => scenario.rateLimited);
  const chosenServers = serverFilter ? servers.filter((server) => serverFilter.test(server.name)) : servers;
  const loadGenerator = await loadGeneratorName();
  log(`http: ${chosenServers.length} servers, ${rounds} rounds, ${warmupSeconds} s warm-up + ${seconds} s per measurement, ${loadGenerator}`);
  for (let round = 0; round < rounds; round++) {
    log(`http: round ${round + 1}/${rounds}`);
    const offset = round % chosenServers.length;
    const order = [...chosenServers.slice(offset), ...chosenServers.slice(0, offset)];
    for (const server of order) {
      const context = { round, seconds, warmupSeconds, log, measurements, unavailable };
      await measureScenarios(server, false, plain, context);
      if (server.rateLimiter !== null) await measureScenarios(server, true, limited, context);
    }
  }
  return { rounds, seconds, warmupSeconds, loadGenerator, measurements, unavailable };
}
