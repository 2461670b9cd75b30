/**
 * `@kiln/core`: the decorators that declare an application, `createServer` that serves it, the
 * middlewares Kiln ships, its errors, dependency injection and the OpenAPI helpers.
 *
 * @module @kiln/core
 */
import './symbols.js';

// Declaring an application
export { Controller } from './decorators/controller.js';
export { Get, Post, Put, Delete, Patch, type RouteDecorator } from './decorators/routes.js';
export { HttpStatus } from './decorators/http-status.js';
export { Middleware } from './decorators/middleware.js';
export { compiledBinder } from './decorators/compiled-binder.js';
export { noParameters } from './binding/no-parameters.js';
export type { KilnDecorator } from './decorators/kiln-decorator.js';
export {
  createRouteMetadata,
  type RouteMetadata,
  type RouteMetadataOptions,
  type RouteMetadataTarget,
} from './decorators/route-metadata.js';
export { HandlerTimeout } from './decorators/handler-timeout.js';
export { Sse, type SseDecorator } from './sse/sse-decorator.js';
export type { SseOptions } from './sse/sse-options.js';
export { SseEvent, sseEvent, type SseEventFields } from './sse/sse-event.js';
export {
  Body,
  Param,
  Query,
  Header,
  Cookie,
  Req,
  routeRequestParamDecorator,
  type ParameterBinding,
  type ParameterItems,
  type ParameterSource,
  type KilnRequestProperty,
} from './decorators/parameters.js';
export type { Binder } from './decorators/binder.js';

// WebSockets
export { WebSocket, type WebSocketDecorator, type WebSocketRouteOptions } from './websocket/websocket-decorator.js';
export type { AllowedOrigins } from './websocket/allowed-origins.js';
export type { Socket, SocketHandlers } from './websocket/socket.js';
export type { WebSocketOptions } from './websocket/websocket-options.js';

// Serving it
export { createServer } from './server.js';
export type { KilnConfig, KilnServer, ListenOptions } from './server-config.js';
export type { ControllerClass, RouteInfo } from './router/route-info.js';
export type { KilnRequest } from './request/kiln-request.js';
export type { QueryValues } from './request/query-string.js';
export type { UploadOptions } from './request/upload-options.js';
export type { HealthCheck, HealthOptions } from './health/health-options.js';
export type {
  OpenTelemetryApi,
  TelemetryOptions,
  TelemetryTracer,
  TelemetryMeter,
  TelemetrySpan,
  TelemetrySpanContext,
  TelemetryHistogram,
  TelemetryContext,
  TelemetryAttributes,
  TelemetryHeaderGetter,
} from './telemetry/telemetry-options.js';
export { env } from './config/env.js';
export { isSecretName, type EnvSource } from './config/read-env.js';
export type { MiddlewareFunction, MiddlewareClass, MiddlewareLike } from './middleware.js';
export { cors } from './middlewares/cors.js';
export type { CorsOptions, CorsOrigin } from './middlewares/cors-options.js';
export { compression } from './middlewares/compression.js';
export type { CompressionOptions } from './compression/compression-options.js';
export type { ContentCoding } from './compression/content-coding.js';
export { secureHeaders, SecureHeaders } from './security/secure-headers.js';
export type { SecureHeadersOptions, CspDirectives } from './security/secure-headers-options.js';
export { csrf, csrfToken, type CsrfOptions } from './security/csrf.js';
export { serializeCookie, setCookie, deleteCookie, type CookieOptions } from './cookies/set-cookie.js';
export { cookieSigner, type CookieSigner } from './cookies/cookie-signer.js';
export { session, type SessionOptions } from './session/session-middleware.js';
export { Session, type SessionData, type SessionFate } from './session/session.js';
export type { SessionStore, StoredSession } from './session/session-store.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './session/memory-session-store.js';
export {
  RedisSessionStore,
  type RedisSessionStoreOptions,
  type IoRedisSessionClient,
  type NodeRedisSessionClient,
} from './session/redis-session-store.js';
export { CookieSessionStore } from './session/cookie-session-store.js';
export { jwtGuard } from './auth/jwt-guard.js';
export type { JwtGuardOptions, JwksOptions, JwtAlgorithm } from './auth/jwt-guard-options.js';
export type { JwtClaims, RegisteredClaims, VerifiedClaims } from './auth/jwt-claims.js';
export { apiKeyGuard, type ApiKeyGuardOptions } from './auth/api-key-guard.js';
export { canonicalAddress, type TrustProxy } from './request/client-address.js';

// Logging
export { Logger, type LogFn, type LogLevel } from './logging/logger.js';
export { createLogger, type LoggerOptions } from './logging/create-logger.js';
export type { LogDestination } from './logging/json-logger.js';
export { requestLogger, type RequestLoggerOptions } from './logging/request-logger.js';

// Answering and failing
export { Response } from './response/kiln-response.js';
export { HttpCode } from './http-code.js';
export { HttpError, type ProblemOptions } from './http-error.js';
export type { ErrorsOption } from './response/error-format.js';
export { KilnError, runtimeErrorCodes, type RuntimeErrorCode } from './kiln-error.js';
export { Injectable, Inject, Scope, type InjectionBinding, type InjectableDecorator } from './injection/decorators.js';
export { Scopes, type Scope as InjectionScope } from './injection/scopes.js';
export { InjectionToken } from './injection/injection-token.js';
export type { Injection } from './injection/container.js';

// OpenAPI documents
export type { DocsOptions } from './openapi/docs-options.js';
export {
  describeMiddleware,
  openApiDescription,
  type MiddlewareOpenApi,
  type SecurityScheme,
} from './openapi/middleware-description.js';
