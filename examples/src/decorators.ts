import { routeRequestParamDecorator } from '@kiln/core';

/** The client's address, from `req.ip` (X-Forwarded-For, X-Real-IP, then the socket). */
export const Ip = routeRequestParamDecorator('ip');
