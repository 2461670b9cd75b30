// Readiness: the server is not closing and every check passed at its last run. Checks run on
// demand, at most once per interval: concurrent probes share one run, later ones its result.
import type { Logger } from '../logging/logger.js';
import type { HealthCheck } from './health-options.js';

export interface ReadinessReport {
  readonly ready: boolean;
  /** Each check by name: `up` or `down`. The reason of a failure is logged, never sent. */
  readonly checks: Readonly<Record<string, 'up' | 'down'>>;
}

interface NamedCheck {
  readonly name: string;
  readonly check: HealthCheck['check'];
  readonly timeout: number;
}

/** Runs one check within its timeout: the reason it failed, or undefined when it passed. */
async function runCheck(named: NamedCheck): Promise<string | undefined> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new DOMException(`The check ${named.name} did not answer within ${named.timeout} ms`, 'TimeoutError'));
      resolve(`did not answer within ${named.timeout} ms`);
    }, named.timeout);
  });
  const outcome = (async () => {
    try {
      return (await named.check(controller.signal)) === false ? 'returned false' : undefined;
    } catch (error) {
      return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
  })();
  try {
    return await Promise.race([outcome, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export class Readiness {
  readonly #checks: readonly NamedCheck[];
  readonly #interval: number;
  readonly #logger: Logger;
  #last: { at: number; report: ReadinessReport } | undefined;
  #running: Promise<ReadinessReport> | undefined;

  constructor(checks: readonly NamedCheck[], interval: number, logger: Logger) {
    this.#checks = checks;
    this.#interval = interval;
    this.#logger = logger;
  }

  /** The checks' report: the last one while it is younger than the interval, else a new run's. */
  report(): ReadinessReport | Promise<ReadinessReport> {
    const last = this.#last;
    if (last !== undefined && performance.now() - last.at < this.#interval) return last.report;
    return (this.#running ??= this.#run());
  }

  async #run(): Promise<ReadinessReport> {
    try {
      const failures = await Promise.all(this.#checks.map(runCheck));
      const checks: Record<string, 'up' | 'down'> = {};
      this.#checks.forEach((named, i) => {
        checks[named.name] = failures[i] === undefined ? 'up' : 'down';
        if (failures[i] !== undefined) this.#logger.warn({ check: named.name, reason: failures[i] }, 'readiness check failed');
      });
      const report: ReadinessReport = { ready: failures.every((failure) => failure === undefined), checks };
      this.#last = { at: performance.now(), report };
      return report;
    } finally {
      this.#running = undefined;
    }
  }
}

export type { NamedCheck };
