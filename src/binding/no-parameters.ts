import type { Binder } from '../decorators/binder.js';

/**
 * The compiled binder of a method without parameters. The transformer marks every route and
 * middleware `use` it compiled, even one with nothing to bind, so the runtime can refuse a method
 * the transformer never saw (KILN003) without guessing from `Function.length` (0 for a handler
 * whose parameters all have defaults). The route table recognises it and calls the method
 * without arguments.
 *
 * @example
 * ```ts
 * @Get('/health') @compiledBinder(noParameters) health() { return 'ok'; }
 * ```
 */
export const noParameters: Binder = () => [];
