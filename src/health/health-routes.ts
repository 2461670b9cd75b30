// `createServer({ health })`: the liveness and readiness routes, compiled like any route (the
// router, HEAD and 405 apply) but without the application middlewares unless asked.
import type { CompiledRoute, RouteTable } from '../app/route-table.js';
import { HttpError } from '../http-error.js';
import { kilnError } from '../kiln-error.js';
import type { Logger } from '../logging/logger.js';
import { joinRoutePath } from '../router/route-path.js';
import type { HealthOptions } from './health-options.js';
import type { Lifecycle } from './lifecycle.js';
import { type NamedCheck, Readiness, type ReadinessReport } from './readiness.js';

/** The controller `app.routes` names for the health routes. */
export class KilnHealth {}

const defaultCheckTimeout = 2_000;
const defaultInterval = 5_000;

function endpointPath(value: unknown, name: string, fallback: string): string | undefined {
  if (value === false) return undefined;
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !value.startsWith('/')) throw kilnError('KILN050', 'path', name, value);
  return joinRoutePath('/', value);
}

function milliseconds(value: unknown, name: string, fallback: number, least: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || (value as number) < least || (value as number) > 2_147_483_647)
    throw kilnError('KILN050', 'milliseconds', name, least, value);
  return value as number;
}

function namedChecks(checks: HealthOptions['checks']): NamedCheck[] {
  if (checks === undefined) return [];
  if (checks === null || typeof checks !== 'object') throw kilnError('KILN050', 'checks');
  return Object.entries(checks).map(([name, given]) => {
    const check = typeof given === 'function' ? given : given?.check;
    if (typeof check !== 'function') throw kilnError('KILN050', 'check', name);
    const timeout = milliseconds(typeof given === 'function' ? undefined : given.timeout, `checks.${name}.timeout`, defaultCheckTimeout, 1);
    return { name, check, timeout };
  });
}

/** The health options, checked at start-up. */
export interface HealthPlan {
  readonly liveness: string | undefined;
  readonly readiness: string | undefined;
  readonly drainDelay: number;
  readonly middlewares: boolean;
  readonly openapi: boolean;
  readonly probe: Readiness;
}

export function healthPlan(options: HealthOptions, logger: Logger): HealthPlan {
  if (options === null || typeof options !== 'object') throw kilnError('KILN050', 'options');
  const liveness = endpointPath(options.liveness, 'liveness', '/livez');
  const readiness = endpointPath(options.readiness, 'readiness', '/readyz');
  if (liveness !== undefined && liveness === readiness) throw kilnError('KILN050', 'samePath', liveness);
  const interval = milliseconds(options.interval, 'interval', defaultInterval, 0);
  return Object.freeze({
    liveness,
    readiness,
    drainDelay: milliseconds(options.drainDelay, 'drainDelay', 0, 0),
    middlewares: options.middlewares === true,
    openapi: options.openapi === true,
    probe: new Readiness(namedChecks(options.checks), interval, logger),
  });
}

/** What readiness answers while its checks pass, and the 503 when one fails. */
function readinessAnswer(plan: HealthPlan, lifecycle: Lifecycle): unknown {
  if (lifecycle.closing) throw new HttpError(503, 'The server is shutting down');
  const answer = (report: ReadinessReport) => {
    if (report.ready) return { status: 'ready', checks: report.checks };
    const failed = Object.keys(report.checks).filter((name) => report.checks[name] === 'down');
    throw new HttpError(503, `A readiness check failed: ${failed.join(', ')}`, { checks: report.checks });
  };
  const report = plan.probe.report();
  return report instanceof Promise ? report.then(answer) : answer(report);
}

/** The route table with the health routes added (KILN050 when one is already a route of the app). */
export function withHealthRoutes(table: RouteTable, plan: HealthPlan, lifecycle: Lifecycle): RouteTable {
  const taken = new Set(table.routes.filter((route) => route.info.method === 'GET').map((route) => route.info.path));
  const instance = new KilnHealth();
  const compiled = (path: string, handler: 'liveness' | 'readiness', answer: () => unknown): CompiledRoute => {
    if (taken.has(path)) throw kilnError('KILN050', 'pathTaken', path, handler);
    return Object.freeze({
      info: Object.freeze({ method: 'GET', path, controller: KilnHealth, handler }),
      name: `KilnHealth.${handler}`,
      instance,
      handler: answer,
      binder: undefined,
      serializer: undefined,
      status: undefined,
      strict: false,
      timeout: 0,
      middlewares: plan.middlewares ? table.appChain : [],
    });
  };
  const routes: CompiledRoute[] = [];
  if (plan.liveness !== undefined) routes.push(compiled(plan.liveness, 'liveness', () => ({ status: 'ok' })));
  if (plan.readiness !== undefined) routes.push(compiled(plan.readiness, 'readiness', () => readinessAnswer(plan, lifecycle)));
  return { routes: [...table.routes, ...routes], appChain: table.appChain };
}

const errorSchema = {
  type: 'object',
  properties: { error: { type: 'string' }, message: { type: 'string' }, data: {} },
  required: ['error', 'message'],
};

/** The OpenAPI paths of the health routes, for `health.openapi`. */
export function healthPaths(plan: HealthPlan): Record<string, object> {
  const paths: Record<string, object> = {};
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  if (plan.liveness !== undefined)
    paths[plan.liveness] = {
      get: {
        operationId: 'kilnLiveness',
        summary: 'Liveness: 200 while the process serves',
        responses: {
          '200': { description: 'Alive', ...json({ type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] }) },
        },
      },
    };
  if (plan.readiness !== undefined)
    paths[plan.readiness] = {
      get: {
        operationId: 'kilnReadiness',
        summary: 'Readiness: 503 while the server is closing or a check fails',
        responses: {
          '200': {
            description: 'Ready',
            ...json({ type: 'object', properties: { status: { const: 'ready' }, checks: { type: 'object' } } }),
          },
          '503': { description: 'Not ready', ...json(errorSchema) },
        },
      },
    };
  return paths;
}
