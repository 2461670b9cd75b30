import { kilnError } from './kiln-error.js';
import type { KilnRequest, RequestCore, RequestOptions } from './request/kiln-request.js';
import { kRequestSpan } from './symbols.js';
import { compileTrustProxy } from './request/client-address.js';
import { uploadLimits } from './request/upload-options.js';
import { RequestSignals } from './request/request-signals.js';
import { isLogger, type Logger } from './logging/logger.js';
import { createDeferredLogger } from './logging/create-logger.js';
import { handlerTimeoutValue } from './decorators/handler-timeout.js';
import type { KilnConfig } from './server-config.js';
import type { Lifecycle } from './health/lifecycle.js';
import { healthPlan, type HealthPlan } from './health/health-routes.js';
import { errorFormat } from './response/error-formats.js';
import { RequestTelemetry } from './telemetry/request-telemetry.js';
import { webSocketLimits, type WebSocketLimits } from './websocket/websocket-options.js';
import { originPolicy, type OriginPolicy } from './websocket/allowed-origins.js';

/** The default of every limit of `createServer`'s config, in one table (docs/guide/server.md shows it). */
export const configDefaults = Object.freeze({
  maxBodySize: 1024 * 1024,
  maxBodyDepth: 64,
  maxUrlLength: 8 * 1024,
  maxHeaderSize: 16 * 1024,
  maxHeadersCount: 1000,
  headersTimeout: 10_000,
  requestTimeout: 30_000,
  keepAliveTimeout: 5_000,
  sendTimeout: 30_000,
  handlerTimeout: 0,
  shutdownTimeout: 10_000,
});

/** The longest delay a timer takes (2^31 - 1 ms, about 24.8 days): a longer one would fire at once. */
const longestTimer = 2_147_483_647;

/** What a runtime's listener needs of the configuration, checked and defaulted. */
export interface ListenerLimits {
  readonly maxHeaderSize: number;
  readonly maxHeadersCount: number;
  readonly headersTimeout: number;
  readonly requestTimeout: number;
  readonly keepAliveTimeout: number;
}

/** `createServer`'s config, checked once and with every default filled in. */
export interface ResolvedConfig {
  readonly logger: Logger;
  /** What every request is read and answered with. */
  readonly request: RequestOptions;
  readonly strictValidation: boolean;
  readonly debug: boolean;
  readonly maxUrlLength: number;
  readonly handlerTimeout: number;
  readonly shutdownTimeout: number;
  readonly listener: ListenerLimits;
  /** The health routes and checks, when `health` is set. */
  readonly health: HealthPlan | undefined;
  /** The server spans and duration histogram, when `telemetry` is set. */
  readonly telemetry: RequestTelemetry | undefined;
  /** The limits of WebSocket connections. */
  readonly webSocket: WebSocketLimits;
  /** `webSocket.allowedOrigins`: the origin check of every `@WebSocket` route without its own. */
  readonly webSocketOrigins: OriginPolicy;
}

function wholeNumber(name: string, value: unknown, least: number): number {
  if (!Number.isInteger(value) || (value as number) < least) throw kilnError('KILN007', 'wholeNumber', name, least, value);
  return value as number;
}

function milliseconds(name: string, value: unknown): number {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > longestTimer)
    throw kilnError('KILN007', 'timeout', name, longestTimer, value);
  return value as number;
}

/** The logger `config.logger` names, or the one Kiln builds from its options. */
function applicationLogger(config: KilnConfig): Logger {
  if (isLogger(config.logger)) return config.logger;
  if (config.debug !== undefined && typeof config.debug !== 'boolean') throw kilnError('KILN007', 'debug', config.debug);
  const options = config.logger ?? {};
  return createDeferredLogger(
    config.debug === true && options !== null && options.level === undefined ? { ...options, level: 'debug' } : options,
  );
}

/** `onError`, or a log line: called once for every error that is not an HttpError, and never throws. */
function errorReporter(config: KilnConfig, logger: Logger): (error: unknown, req: KilnRequest) => void {
  const onError =
    config.onError ??
    ((error: unknown, req: KilnRequest) =>
      // The path only, as ever: a query string may carry what must not reach a log.
      logger.error(
        { err: error, req: { id: req.id, method: req.method, path: req.path }, ...(req as RequestCore)[kRequestSpan]?.fields() },
        'request failed',
      ));
  return (error, req) => {
    try {
      onError(error, req);
    } catch (failure) {
      try {
        logger.error({ err: failure, req: { method: req.method, url: req.path } }, 'onError threw while reporting an error');
      } catch {
        // nothing left to report to
      }
    }
  };
}

function requestOptions(config: KilnConfig, logger: Logger, lifecycle: Lifecycle): RequestOptions {
  const maxBodySize = config.maxBodySize ?? configDefaults.maxBodySize;
  if (!Number.isInteger(maxBodySize) || maxBodySize < 0) throw kilnError('KILN007', 'maxBodySize', maxBodySize);
  const report = errorReporter(config, logger);
  const maxBodyDepth = wholeNumber('maxBodyDepth', config.maxBodyDepth ?? configDefaults.maxBodyDepth, 1);
  const sendTimeout = wholeNumber('sendTimeout', config.sendTimeout ?? configDefaults.sendTimeout, 0);
  const uploads = uploadLimits(config.uploads);
  const errors = errorFormat(config.errors);
  return Object.freeze({
    maxBodySize,
    trustProxy: compileTrustProxy(config.trustProxy),
    report,
    maxBodyDepth,
    sendTimeout,
    logger,
    uploads,
    signals: new RequestSignals(),
    lifecycle,
    errors,
  });
}

function listenerLimits(config: KilnConfig): ListenerLimits {
  const maxHeaderSize = wholeNumber('maxHeaderSize', config.maxHeaderSize ?? configDefaults.maxHeaderSize, 1);
  const maxHeadersCount = wholeNumber('maxHeadersCount', config.maxHeadersCount ?? configDefaults.maxHeadersCount, 1);
  const headersTimeout = milliseconds('headersTimeout', config.headersTimeout ?? configDefaults.headersTimeout);
  const requestTimeout = milliseconds('requestTimeout', config.requestTimeout ?? configDefaults.requestTimeout);
  const keepAliveTimeout = milliseconds('keepAliveTimeout', config.keepAliveTimeout ?? configDefaults.keepAliveTimeout);
  // Node refuses a head deadline past the whole request's (0 turns requestTimeout off).
  if (requestTimeout > 0 && headersTimeout > requestTimeout)
    throw kilnError('KILN007', 'headersAfterRequest', headersTimeout, requestTimeout);
  return Object.freeze({ maxHeaderSize, maxHeadersCount, headersTimeout, requestTimeout, keepAliveTimeout });
}

/**
 * Checks `createServer`'s config and fills in its defaults, once: every option Kiln reads is
 * checked here (KILN007 names the option and the value), so nothing after start-up meets a bad one.
 * `lifecycle` is the server's state that requests and the health routes read (closing or not).
 */
export function resolveConfig(config: KilnConfig, lifecycle: Lifecycle): ResolvedConfig {
  if (config === null || typeof config !== 'object' || !Array.isArray(config.controllers)) throw kilnError('KILN007', 'noControllers');
  const logger = applicationLogger(config);
  const request = requestOptions(config, logger, lifecycle);
  const health = config.health === undefined ? undefined : healthPlan(config.health, logger);
  const listener = listenerLimits(config);
  return Object.freeze({
    logger,
    request,
    strictValidation: config.strictValidation ?? false,
    debug: config.debug === true,
    maxUrlLength: wholeNumber('maxUrlLength', config.maxUrlLength ?? configDefaults.maxUrlLength, 1),
    handlerTimeout: handlerTimeoutValue('handlerTimeout', config.handlerTimeout ?? configDefaults.handlerTimeout),
    shutdownTimeout: milliseconds('shutdownTimeout', config.shutdownTimeout ?? configDefaults.shutdownTimeout),
    listener,
    health,
    telemetry: config.telemetry === undefined ? undefined : new RequestTelemetry(config.telemetry),
    webSocket: webSocketLimits(config.webSocket),
    webSocketOrigins: originPolicy(config.webSocket?.allowedOrigins, 'webSocket.allowedOrigins'),
  });
}
