import { routeRequestParamDecorator } from 'kiln';

/** The client's address, from `req.ip` (X-Forwarded-For, X-Real-IP, then the socket). */
export const Ip = routeRequestParamDecorator('ip');
