// Where a tspc build spends its time: runs `tspc -p` under `node --cpu-prof` and sorts every
// profile sample into one phase by the functions on its stack (Kiln's own phases first, then
// TypeScript's: parse, bind, check, emit). On a shared machine a sample's time includes the time
// the process waited for a core, so each phase is its share of the samples times the CPU time
// the process used (profiler included): compare the phases of the builds of one run.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const tspc = fileURLToPath(new URL('../../node_modules/ts-patch/bin/tspc.js', import.meta.url));

/** Phases in the order a sample is tested against them: the first whose function is on the stack wins. */
const phases = [
  ['Kiln: analysis (find + analyse)', ['analyseProgram', 'analyseResponses']],
  ['Kiln: OpenAPI document', ['generateOpenApi']],
  ['Kiln: generated code (emit stage)', ['emitFileCode', 'emitSerializers', 'rewriteSource']],
  ['Kiln: second program (rewritten files parsed)', ['createProgram@compileProgram']],
  ['parse', ['createSourceFile']],
  ['bind', ['bindSourceFile']],
  ['type check', ['checkSourceFile', 'getDiagnosticsWorker']],
  ['emit', ['emitFiles', 'emitJsFileOrBundle']],
  ['report diagnostics', ['formatDiagnostic', 'formatDiagnosticsWithColorAndContext']],
];

/** CPU milliseconds (user + system) of this process's reaped children (cutime + cstime, 10 ms ticks); `undefined` off Linux. */
export function childrenCpuMs() {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** Milliseconds of samples by phase ('other': start-up, module loading, GC, what no phase names), scaled to `cpuMs` when given. */
function phaseTimes(profile, cpuMs) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const phaseOfNode = new Map();
  const phaseOf = (id) => {
    let phase = phaseOfNode.get(id);
    if (phase !== undefined) return phase;
    const stack = [];
    for (let at = id; at !== undefined; at = parentOf.get(at)) stack.push(byId.get(at).callFrame.functionName);
    const names = new Set(stack);
    // `createProgram` called by Kiln's compileProgram (the rewritten program), told apart from tspc's own.
    const kilnCreate = stack.indexOf('compileProgram');
    if (kilnCreate > 0 && stack.slice(0, kilnCreate).includes('createProgram')) names.add('createProgram@compileProgram');
    phase = phases.find(([, functions]) => functions.some((name) => names.has(name)))?.[0] ?? 'other';
    phaseOfNode.set(id, phase);
    return phase;
  };
  const times = new Map([...phases.map(([name]) => [name, 0]), ['other', 0]]);
  let sampled = 0;
  profile.samples.forEach((id, index) => {
    const phase = phaseOf(id);
    const ms = (profile.timeDeltas[index] ?? 0) / 1000;
    sampled += ms;
    times.set(phase, times.get(phase) + ms);
  });
  const scale = cpuMs === undefined || sampled === 0 ? 1 : cpuMs / sampled;
  return Object.fromEntries([...times].map(([phase, ms]) => [phase, ms * scale]));
}

/** One profiled `tspc -p dir` (type errors tolerated: the build without the plugin has them). */
async function profiledBuild(dir) {
  const profileDir = await mkdtemp(join(tmpdir(), 'kiln-build-profile-'));
  const before = childrenCpuMs();
  try {
    await run(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, tspc, '-p', join(dir, 'tsconfig.json')], {
      maxBuffer: 1 << 24,
    }).catch((error) => {
      if (error.code === undefined || typeof error.code !== 'number') throw error;
    });
    const after = childrenCpuMs();
    const [file] = await readdir(profileDir);
    return phaseTimes(JSON.parse(await readFile(join(profileDir, file), 'utf8')), before === undefined ? undefined : after - before);
  } finally {
    await rm(profileDir, { recursive: true, force: true });
  }
}

/** The phases of both builds, medians of `runs` interleaved profiled runs each. */
export async function buildPhases(withoutDir, withDir, runs = 3) {
  const samples = { without: [], with: [] };
  for (let i = 0; i < runs; i++) {
    samples.without.push(await profiledBuild(withoutDir));
    samples.with.push(await profiledBuild(withDir));
  }
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  const names = [...phases.map(([name]) => name), 'other'];
  return names.map((phase) => ({
    phase,
    withoutMs: median(samples.without.map((times) => times[phase])),
    withMs: median(samples.with.map((times) => times[phase])),
  }));
}
