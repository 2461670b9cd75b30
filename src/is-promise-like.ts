/** A thenable: the pipeline stays synchronous until a middleware, binder or handler returns one. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}
