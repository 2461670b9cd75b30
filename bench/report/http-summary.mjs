// Turns the HTTP measurements into per-scenario rows: median req/s and p99 over the rounds, and
// the median of the per-round ratios to the baseline (raw node:http), since only measurements of
// the same round are comparable on a machine that drifts between rounds.
import { median } from './statistics.mjs';
import { quartiles } from '../interleaved/slots.mjs';

function byRound(measurements, server, scenario) {
  const rounds = new Map();
  for (const m of measurements) if (m.server === server && m.scenario === scenario) rounds.set(m.round, m);
  return rounds;
}

/** Per round, ours over theirs: req/s, or (`cpu`) their CPU time per request over ours (above 1: we spend less). */
function roundRatios(measurements, [server, scenario], [otherServer, otherScenario], by) {
  const ours = byRound(measurements, server, scenario);
  const theirs = byRound(measurements, otherServer, otherScenario);
  const ratios = [];
  for (const [round, m] of ours) {
    const other = theirs.get(round);
    if (other) ratios.push(by === 'cpu' ? other.cpuUsPerRequest / m.cpuUsPerRequest : m.rps / other.rps);
  }
  return ratios;
}

/** Median and interquartile range over rounds of our req/s over theirs, each pair from one round. */
export const roundRatioQuartiles = (measurements, ours, theirs) => quartiles(roundRatios(measurements, ours, theirs, 'rps'));
/** The same by CPU time per request: theirs over ours. */
export const cpuRatioQuartiles = (measurements, ours, theirs) => quartiles(roundRatios(measurements, ours, theirs, 'cpu'));
/** Median over rounds of numerator/denominator req/s, each pair from one round. */
export const roundRatio = (measurements, ours, theirs) => roundRatioQuartiles(measurements, ours, theirs).median;
/** Median over rounds of the other's CPU time per request over ours (above 1: we spend less). */
export const cpuRatio = (measurements, ours, theirs) => cpuRatioQuartiles(measurements, ours, theirs).median;

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
      ratioIqr: roundRatioQuartiles(http.measurements, [server, scenarioId], [baseline, scenarioId]),
      cpuRatioIqr: cpuRatioQuartiles(http.measurements, [server, scenarioId], [baseline, scenarioId]),
      cpuUs: median(rounds.map((m) => m.cpuUsPerRequest)),
      cpuRatio: cpuRatio(http.measurements, [server, scenarioId], [baseline, scenarioId]),
    });
  }
  return rows;
}
