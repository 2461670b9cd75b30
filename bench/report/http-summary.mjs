// Turns the HTTP measurements into per-scenario rows: median req/s and p99 over the rounds, and
// the median of the per-round ratios to the baseline (raw node:http), since only measurements of
// the same round are comparable on a machine that drifts between rounds.
import { median } from './statistics.mjs';

function byRound(measurements, server, scenario) {
  const rounds = new Map();
  for (const m of measurements) if (m.server === server && m.scenario === scenario) rounds.set(m.round, m);
  return rounds;
}

/** Median over rounds of numerator/denominator req/s, each pair from one round. */
export function roundRatio(measurements, [server, scenario], [otherServer, otherScenario]) {
  const ours = byRound(measurements, server, scenario);
  const theirs = byRound(measurements, otherServer, otherScenario);
  const ratios = [];
  for (const [round, m] of ours) if (theirs.has(round)) ratios.push(m.rps / theirs.get(round).rps);
  return median(ratios);
}

/** Median over rounds of the other's CPU time per request over ours (above 1: we spend less). */
export function cpuRatio(measurements, [server, scenario], [otherServer, otherScenario]) {
  const ours = byRound(measurements, server, scenario);
  const theirs = byRound(measurements, otherServer, otherScenario);
  const ratios = [];
  for (const [round, m] of ours) if (theirs.has(round)) ratios.push(theirs.get(round).cpuUsPerRequest / m.cpuUsPerRequest);
  return median(ratios);
}

export function httpRows(http, serverNames, baseline, scenarioId) {
  const rows = [];
  for (const server of serverNames) {
    const rounds = [...byRound(http.measurements, server, scenarioId).values()];
    if (rounds.length === 0) continue;
    rows.push({
      server,
      rps: median(rounds.map((m) => m.rps)),
      p99Ms: median(rounds.map((m) => m.p99Ms)),
      perRound: rounds.sort((a, b) => a.round - b.round).map((m) => m.rps),
      ratio: roundRatio(http.measurements, [server, scenarioId], [baseline, scenarioId]),
      cpuUs: median(rounds.map((m) => m.cpuUsPerRequest)),
      cpuRatio: cpuRatio(http.measurements, [server, scenarioId], [baseline, scenarioId]),
    });
  }
  return rows;
}
