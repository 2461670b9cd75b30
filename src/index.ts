import './symbols.js';

export { Controller } from './decorators/controller.js';
export { Get, Post, Put, Delete, Patch } from './decorators/routes.js';
export { HttpStatus } from './decorators/http-status.js';
export { Middleware } from './decorators/middleware.js';
export { HttpCode } from './http-code.js';
export { HttpError } from './http-error.js';
export { KilnError, runtimeErrorCodes, type RuntimeErrorCode } from './kiln-error.js';
export {
  Body, Param, Query, Header, Req, routeRequestParamDecorator,
  type ParameterBinding, type ParameterItems, type ParameterSource,
} from './decorators/parameters.js';
export { compiledBinder, type Binder } from './binder.js';
export { createServer, type KilnConfig, type KilnServer } from './server.js';
export type { RouteInfo } from './route-table.js';
export type { KilnRequest } from './request/kiln-request.js';
export type { QueryValues } from './request/query-string.js';
export type { MiddlewareFunction, MiddlewareClass, MiddlewareLike } from './middleware.js';
export type { DocsOptions } from './docs/docs-options.js';
export { describeMiddleware, openApiDescription, type MiddlewareOpenApi } from './docs/middleware-description.js';
