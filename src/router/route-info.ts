/** A class listed in `controllers`: anything constructible (a function like `Math.max` is not). */
export type ControllerClass = new (...args: never[]) => object;

/** One row of `app.routes`, and `req.route` of a request that matched it. */
export interface RouteInfo {
  readonly method: string;
  /** The declared path, with its `:name` segments. */
  readonly path: string;
  /** The controller class. */
  readonly controller: ControllerClass;
  /** The handler's method name. */
  readonly handler: string;
}
