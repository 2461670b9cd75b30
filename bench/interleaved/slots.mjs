// The one comparison method of the benchmark: short interleaved slots. Servers already started and
// warmed are loaded in turn for `slot` seconds each (1 s by default), in an order rotated every
// cycle, and each slot's server CPU time is read from /proc. Neighbouring slots see nearly the same
// machine load (other work on a shared 2-core machine comes and goes within seconds), so a ratio
// taken slot against slot, within one cycle, is steadier than any absolute figure; the median and
// interquartile range of those per-cycle ratios are what the reports give.
import os from 'node:os';
import { load } from '../http/load-generator.mjs';
import { cpuSeconds } from '../http/process-cpu.mjs';

/** The q-quantile (0–1) of the finite values, linearly interpolated; NaN when there are none. */
export function quantile(values, q) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
}

/** Median and interquartile range of a list of ratios. */
export function quartiles(values) {
  return {
    median: quantile(values, 0.5),
    q1: quantile(values, 0.25),
    q3: quantile(values, 0.75),
    n: values.filter(Number.isFinite).length,
  };
}

/**
 * The verdict on a ratio against a target: "met" when the whole IQR is on the target's side,
 * "missed" when it is wholly on the other, "level" when it contains the target (for a target of
 * 1.0×: the IQR spans 1.0, the two are level by this measurement).
 * `atMost` targets (a cost ratio, a cold start) are met below the target.
 */
export function verdict({ q1, q3 }, { atLeast, atMost }) {
  if (!Number.isFinite(q1) || !Number.isFinite(q3)) return 'not measured';
  if (atLeast !== undefined) return q1 >= atLeast ? 'met' : q3 < atLeast ? 'missed' : 'level';
  return q3 <= atMost ? 'met' : q1 > atMost ? 'missed' : 'level';
}

/** The 1-minute load average now, to two decimals. */
export function loadNow() {
  return Number(os.loadavg()[0].toFixed(2));
}

/**
 * Runs `cycles` cycles over `instances` (each `{ name, port, process: { pid } }`) on `scenario`:
 * each instance gets one `slot`-second load per cycle, the order rotated by one every cycle.
 * Returns, per instance name, its slots `{ cpu, requests, rps, share }` (CPU seconds, requests
 * answered, req/s, and `share`: the server's CPU seconds per second of the slot — below 1 while
 * it was the bottleneck, another process took part of its core), and per cycle the 1-minute
 * load average at its start.
 */
export async function measureSlots(instances, scenario, { cycles, slot = 1, log } = {}) {
  const slots = Object.fromEntries(instances.map((instance) => [instance.name, []]));
  const cycleLoad = [];
  for (let cycle = 0; cycle < cycles; cycle++) {
    cycleLoad.push(loadNow());
    const offset = cycle % instances.length;
    for (const instance of [...instances.slice(offset), ...instances.slice(0, offset)]) {
      const cpuBefore = cpuSeconds(instance.process.pid);
      const started = process.hrtime.bigint();
      const result = await load(instance.port, scenario, slot);
      const cpu = cpuSeconds(instance.process.pid) - cpuBefore;
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      if (result.errors > 0) throw new Error(`${instance.name} ${scenario.title}: ${result.errors} bad answers under load`);
      slots[instance.name].push({ cpu, requests: result.requests, rps: result.rps, share: cpu / Math.min(wall, slot) });
    }
    log?.(
      `    cycle ${cycle + 1}/${cycles} load ${cycleLoad.at(-1)}: ${instances
        .map((instance) => {
          const last = slots[instance.name].at(-1);
          return `${instance.name} ${((last.cpu * 1e6) / last.requests).toFixed(1)} µs`;
        })
        .join(', ')}`,
    );
  }
  return { slot, cycles, slots, cycleLoad };
}

/** CPU µs per request of one slot; NaN for a slot in which nothing was answered (a stalled machine). */
export const cpuPerRequest = (slot) => (slot.requests > 0 ? (slot.cpu * 1e6) / slot.requests : NaN);

/**
 * Ours against theirs, cycle by cycle: their CPU per request over ours and our req/s over theirs
 * (above 1: ours is ahead), as medians with IQR; plus each side's CPU µs/request over all slots.
 */
export function compareSlots(ours, theirs) {
  const cycles = Math.min(ours.length, theirs.length);
  const byCpu = [];
  const byRps = [];
  for (let i = 0; i < cycles; i++) {
    byCpu.push(cpuPerRequest(theirs[i]) / cpuPerRequest(ours[i]));
    byRps.push(ours[i].rps / theirs[i].rps);
  }
  return { byCpu: quartiles(byCpu), byRps: quartiles(byRps), oursUs: overall(ours), theirsUs: overall(theirs) };
}

/** CPU µs per request over all slots, and the median req/s and core share. */
export function overall(slots) {
  const cpu = slots.reduce((sum, slot) => sum + slot.cpu, 0);
  const requests = slots.reduce((sum, slot) => sum + slot.requests, 0);
  return {
    cpuUs: (cpu * 1e6) / requests,
    rps: quantile(
      slots.map((slot) => slot.rps),
      0.5,
    ),
    share: quantile(
      slots.map((slot) => slot.share),
      0.5,
    ),
  };
}
