// Start-up reading of the environment into a typed configuration: every variable is read and
// converted, every problem is collected, and one error names them all. A value is never echoed
// when its variable's name says it is a secret.
import { kilnError } from '../kiln-error.js';
import type { EnvConversion, EnvPlan } from './env-plan.js';

/** Where variables come from: `process.env`, `Deno.env`, or a Workers `env` binding passed in. */
export type EnvSource = Readonly<Record<string, unknown>>;

const secretName = /secret|token|password|passwd|key|credential|private/i;

/** Whether a variable's value must never be shown (its name says secret, token, password, key...). */
export function isSecretName(name: string): boolean {
  return secretName.test(name);
}

interface RuntimeEnv {
  process?: { env?: Record<string, string | undefined> };
  Deno?: { env: { toObject(): Record<string, string> } };
}

/** The environment of the runtime: Deno's, else Node's and Bun's `process.env`; none on Workers (pass the binding). */
function runtimeEnvironment(): EnvSource {
  const runtime = globalThis as RuntimeEnv;
  if (runtime.Deno !== undefined) return runtime.Deno.env.toObject();
  if (runtime.process?.env !== undefined) return runtime.process.env;
  throw kilnError('KILN051', 'noEnvironment');
}

function describe(conversion: EnvConversion): string {
  switch (conversion.kind) {
    case 'text':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true, false, 1 or 0';
    case 'date':
      return 'a date (ISO 8601)';
    case 'enum':
      return `one of ${conversion.values.map((value) => JSON.stringify(value)).join(', ')}`;
    case 'array':
      return `a comma-separated list of ${describe(conversion.item).replace(/^a /, '')}s`;
  }
}

const failed = Symbol('failed');

/** One text converted, or `failed`. */
function convert(text: string, conversion: EnvConversion): unknown {
  switch (conversion.kind) {
    case 'text':
      return text;
    case 'number': {
      const value = text.trim() === '' ? Number.NaN : Number(text);
      return Number.isFinite(value) ? value : failed;
    }
    case 'boolean':
      return text === 'true' || text === '1' ? true : text === 'false' || text === '0' ? false : failed;
    case 'date': {
      const value = new Date(text);
      return text.trim() === '' || Number.isNaN(value.getTime()) ? failed : value;
    }
    case 'enum': {
      const found = conversion.values.find((value) => String(value) === text);
      return found === undefined ? failed : found;
    }
    case 'array': {
      if (text.trim() === '') return [];
      const items = text.split(',').map((item) => convert(item.trim(), conversion.item));
      return items.includes(failed) ? failed : items;
    }
  }
}

function shown(name: string, value: unknown): string {
  if (isSecretName(name)) return 'a value (not shown: the name says it is a secret)';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}...` : text);
}

/** typia's path `$input.API_URL` or `$input["API-URL"][1]` → the variable's name. */
function variableOf(path: string): string {
  const dotted = /^\$input\.([A-Za-z_$][\w$]*)/.exec(path);
  if (dotted !== null) return dotted[1]!;
  const bracketed = /^\$input\["((?:[^"\\]|\\.)*)"\]/.exec(path);
  return bracketed !== null ? JSON.parse(`"${bracketed[1]}"`) : path;
}

/**
 * Reads the configuration `plan` describes from `source` (default: the runtime's environment),
 * or throws one KILN051 error listing every missing or invalid variable by name.
 */
export function readEnv<T>(plan: EnvPlan, source?: EnvSource): T {
  const environment = source ?? runtimeEnvironment();
  // One problem per variable, listed in declaration order.
  const problems = new Map<string, string>();
  const config: Record<string, unknown> = {};
  const texts: Record<string, string> = {};
  for (const variable of plan.variables) {
    const raw = environment[variable.name];
    if (raw === undefined || raw === '') {
      if (!variable.optional) problems.set(variable.name, `missing (expected ${describe(variable.conversion)})`);
      continue;
    }
    const text = typeof raw === 'string' ? raw : String(raw);
    texts[variable.name] = text;
    const value = convert(text, variable.conversion);
    if (value === failed) problems.set(variable.name, `expected ${describe(variable.conversion)}, got ${shown(variable.name, text)}`);
    else config[variable.name] = value;
  }
  // typia checks the tags of what did convert; a variable already refused is not reported twice.
  const validation = plan.validate?.(config);
  for (const error of validation === undefined || validation.success ? [] : (validation.errors ?? [])) {
    const name = variableOf(error.path);
    if (!problems.has(name)) problems.set(name, `expected ${error.expected}, got ${shown(name, texts[name] ?? error.value)}`);
  }
  if (problems.size > 0) {
    const listed = plan.variables
      .filter((variable) => problems.has(variable.name))
      .map((variable) => `${variable.name}: ${problems.get(variable.name)}`);
    throw kilnError('KILN051', 'invalidEnvironment', plan.type, listed);
  }
  return Object.freeze(config) as T;
}
