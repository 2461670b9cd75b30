// Runs a command of the consumer setup as a reader runs it in a terminal, and keeps its output
// for the failure message.
import { spawn } from 'node:child_process';

export interface CommandResult {
  readonly exitCode: number | null;
  readonly output: string;
}

/**
 * The environment without what npm adds for a script (`npm test` exports its whole config as
 * npm_config_*, the user's .npmrc included, plus npm_package_* and npm_lifecycle_*): a reader's
 * terminal has none of it, and a child npm would take it over its own project and user config.
 */
function terminalEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(config|package|lifecycle)_/i.test(name)));
}

// npm answers from its local cache where it can; the registry is asked only for what is missing.
export const npmEnvironment: NodeJS.ProcessEnv = {
  ...terminalEnvironment(),
  npm_config_prefer_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  NO_COLOR: '1',
};

/** Runs `script` with bash (`set -e`: the first failing line stops it) in `cwd`. */
export function runScript(script: string, cwd: string, env: NodeJS.ProcessEnv = npmEnvironment): Promise<CommandResult> {
  return runCommand('bash', ['-e', '-c', script], cwd, env);
}

export function runCommand(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = npmEnvironment,
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ exitCode, output }));
  });
}
