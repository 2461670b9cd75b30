// Reads a V8 .cpuprofile and lists the functions with the most self time, as percentages of
// all samples (idle and GC shown as V8 names them).
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';

export async function topFunctions(file, count = 25, root = process.cwd()) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const selfSamples = new Map();
  for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
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
  const total = profile.samples.length;
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, samples]) => ({ name, percent: (100 * samples) / total }));
}

/** Self time grouped by where the code lives: the application's packages, Node's internals, native. */
export async function timeByOrigin(file, root = process.cwd()) {
  const profile = JSON.parse(await readFile(file, 'utf8'));
  const selfSamples = new Map();
  for (const id of profile.samples) selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
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
  const total = profile.samples.length;
  return [...groups.entries()].sort((a, b) => b[1] - a[1]).map(([origin, samples]) => ({ origin, percent: (100 * samples) / total }));
}
