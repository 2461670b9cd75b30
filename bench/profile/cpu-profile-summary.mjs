// Reads a V8 .cpuprofile and lists the functions with the most self time, as percentages of
// all samples (idle and GC shown as V8 names them).
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';

/**
 * Self samples by node id, only those of the last `lastSeconds` of the profile when given (the
 * measured load, not the warm-up scenarios before it).
 */
function countSamples(profile, lastSeconds) {
  const selfSamples = new Map();
  const times = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((t += delta));
  const from = lastSeconds === undefined ? -Infinity : profile.endTime - lastSeconds * 1e6;
  let total = 0;
  profile.samples.forEach((id, i) => {
    if (times[i] < from) return;
    selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
    total++;
  });
  return { selfSamples, total };
}

export async function topFunctions(file, count = 25, root = process.cwd(), lastSeconds = undefined) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const { selfSamples, total } = countSamples(profile, lastSeconds);
  const byFunction = new Map();
  for (const node of profile.nodes) {
    const samples = selfSamples.get(node.id) ?? 0;
    if (samples === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const path = url.startsWith('file://') ? relative(root, url.slice('file://'.length)) : url;
    const where = url ? `${path}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + samples);
  }
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, samples]) => ({ name, percent: (100 * samples) / total }));
}

/** Self time grouped by where the code lives: the application's packages, Node's internals, native. */
export async function timeByOrigin(file, root = process.cwd(), lastSeconds = undefined) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const { selfSamples, total } = countSamples(profile, lastSeconds);
  const groups = new Map();
  for (const node of profile.nodes) {
    const samples = selfSamples.get(node.id) ?? 0;
    if (samples === 0) continue;
    const { functionName, url } = node.callFrame;
    let origin;
    if (url.startsWith('node:')) origin = 'node internals (JS)';
    else if (url.startsWith('file://')) {
      const path = relative(root, url.slice('file://'.length));
      const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      origin = packageMatch ? packageMatch[1] : path.split('/').slice(0, 2).join('/');
    } else origin = `${functionName || '(native)'}`;
    groups.set(origin, (groups.get(origin) ?? 0) + samples);
  }
  return [...groups.entries()].sort((a, b) => b[1] - a[1]).map(([origin, samples]) => ({ origin, percent: (100 * samples) / total }));
}
