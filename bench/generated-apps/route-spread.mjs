// How a generated application spreads its routes: controllers of ten routes each, every route
// `GET /c<controller>/r<route>/:id?q=...` with a typed route parameter and a query parameter.
export const routesPerController = 10;

export function controllersFor(routeCount) {
  const controllers = [];
  for (let c = 0; c * routesPerController < routeCount; c++) {
    const routes = [];
    for (let r = 0; r < routesPerController && c * routesPerController + r < routeCount; r++) routes.push(c * routesPerController + r);
    controllers.push({ index: c, routes });
  }
  return controllers;
}

/** The last generated route: answering it means the whole table is in place. */
export function lastRoutePath(routeCount) {
  const last = routeCount - 1;
  return `/c${Math.floor(last / routesPerController)}/r${last % routesPerController}/7?q=x`;
}
