// Decorators defined away from the controllers that use them: @kiln/core/transformer must recognise
// them by type (a custom request-property decorator, a renamed re-export).
import { routeRequestParamDecorator } from '@kiln/core';

/** The client address (`req.ip`). */
export const Ip = routeRequestParamDecorator('ip');
/** The request path (`req.path`). */
export const RequestPath = routeRequestParamDecorator('path');
export { Query as Q } from '@kiln/core';
