// HTTP throughput: every server, every scenario, in rounds. All servers are started once (each
// on its own port, all pinned to the server core; an idle one costs nothing) and checked before
// anything is timed. Each round then takes the scenarios in turn and, within a scenario, gives
// each server one short slot (1 s) in a rotated order (so none is always first), each process
// warmed on the scenario before its first slot: the slots a ratio compares are seconds apart. Scenario
// (d) follows each server's (b) directly. A server runs up to three processes (scenarios.mjs): one
// that only ever serves route (b), one for everything else, one behind its rate limiter.
import { processOf, scenarios } from './scenarios.mjs';
import { servers } from './servers.mjs';
import { startServer } from './server-process.mjs';
import { checkServer } from './check-server.mjs';
import { load, loadGeneratorName } from './load-generator.mjs';
import { cpuSeconds } from './process-cpu.mjs';
import { freePort } from '../free-port.mjs';

/** The first GET a process is measured on: what start-up polls until the server is up. */
function probeOf(chosen) {
  const get = chosen.find((scenario) => scenario.request?.method === 'GET');
  return get?.request ?? { path: '/hello', headers: {} };
}

async function startAll(chosenServers, chosenScenarios, log) {
  const running = [];
  const unavailable = {};
  for (const server of chosenServers) {
    for (const kind of ['fresh', 'main', 'rate-limited']) {
      const rateLimited = kind === 'rate-limited';
      if (rateLimited && server.rateLimiter === null) continue;
      const chosen = chosenScenarios.filter(
        (scenario) => processOf(scenario) === kind && (server.scenarios === undefined || server.scenarios.includes(scenario.id)),
      );
      if (chosen.length === 0) continue;
      const serverPort = await freePort();
      try {
        const process = await startServer(server, serverPort, { rateLimited, probe: probeOf(chosen) });
        running.push({ server, kind, port: serverPort, process, scenarios: chosen });
      } catch (error) {
        if (!rateLimited) throw error;
        unavailable[server.name] = String(error.message).split('\n')[0];
        log(`http: ${server.name} with its rate limiter is unavailable: ${unavailable[server.name]}`);
      }
    }
  }
  return { running, unavailable };
}

export async function runHttp({ rounds = 10, seconds = 1, warmupSeconds = 2, log = console.log, serverFilter, scenarioIds } = {}) {
  const chosenScenarios = scenarioIds ? scenarios.filter((scenario) => scenarioIds.includes(scenario.id)) : scenarios;
  const chosenServers = serverFilter ? servers.filter((server) => serverFilter.test(server.name)) : servers;
  const loadGenerator = await loadGeneratorName();
  log(`http: ${chosenServers.length} servers, ${rounds} rounds of ${seconds} s slots (${warmupSeconds} s warm-up first), ${loadGenerator}`);
  const { running, unavailable } = await startAll(chosenServers, chosenScenarios, log);
  const measurements = [];
  try {
    for (const instance of running) await checkServer(instance.server, instance.port, instance.scenarios);
    log(`http: answers of ${running.length} server processes checked`);
    // Interleaved slots (bench/interleaved/slots.mjs's method): each process is warmed on a scenario
    // once, then every round gives each server one short slot of it, servers in a rotated order.
    const warmed = new Set();
    const measure = async (instance, scenario, round) => {
      if (!warmed.has(`${instance.port} ${scenario.id}`)) await load(instance.port, scenario, warmupSeconds);
      warmed.add(`${instance.port} ${scenario.id}`);
      if (instance.process.exited())
        throw new Error(`${instance.server.name} (${instance.kind} process) exited under ${scenario.title}:\n${instance.process.stderr()}`);
      const cpuBefore = cpuSeconds(instance.process.pid);
      const result = await load(instance.port, scenario, seconds);
      const cpuUsPerRequest = ((cpuSeconds(instance.process.pid) - cpuBefore) * 1e6) / result.requests;
      if (result.errors > 0) throw new Error(`${instance.server.name} ${scenario.title}: ${result.errors} bad answers under load`);
      measurements.push({ round, server: instance.server.name, scenario: scenario.id, ...result, cpuUsPerRequest });
      log(
        `  ${scenario.id}  ${instance.server.name.padEnd(30)} ${Math.round(result.rps).toString().padStart(7)} req/s  p99 ${result.p99Ms.toFixed(2)} ms  ${cpuUsPerRequest.toFixed(1)} µs CPU/req`,
      );
    };
    for (let round = 0; round < rounds; round++) {
      log(`http: round ${round + 1}/${rounds}`);
      for (const scenario of chosenScenarios.filter((candidate) => candidate.after === undefined)) {
        const followers = chosenScenarios.filter((candidate) => candidate.after === scenario.id);
        const instances = running.filter((instance) => instance.scenarios.includes(scenario));
        const offset = round % Math.max(1, instances.length);
        for (const instance of [...instances.slice(offset), ...instances.slice(0, offset)]) {
          await measure(instance, scenario, round);
          for (const follower of followers) {
            const paired = running.find((other) => other.server === instance.server && other.scenarios.includes(follower));
            if (paired) await measure(paired, follower, round);
          }
        }
      }
      // A follower whose leader was not chosen runs on its own.
      for (const scenario of chosenScenarios.filter(
        (candidate) => candidate.after !== undefined && !chosenScenarios.some((s) => s.id === candidate.after),
      )) {
        for (const instance of running.filter((candidate) => candidate.scenarios.includes(scenario)))
          await measure(instance, scenario, round);
      }
    }
  } finally {
    for (const instance of running) await instance.process.stop();
  }
  return { rounds, seconds, warmupSeconds, loadGenerator, measurements, unavailable };
}
