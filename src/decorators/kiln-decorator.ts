/**
 * The type every Kiln class and method decorator returns: the decorator function plus a phantom
 * brand that says, in literal types, what it declares (`{ kind: 'route', method: 'GET', path: '/:id' }`).
 * `@kiln/core/transformer` recognises Kiln's decorators by this brand, as it recognises parameter
 * decorators by theirs, so aliases and re-exports work and an application's own `Get` or
 * `Controller` is never taken for Kiln's. The brand's name is read by
 * transformer/find/runtime-brands.cts (a contract test holds them together).
 */
export type KilnDecorator<Brand, Context> = ((target: Function, context: Context) => void) & {
  readonly __kilnDecorator: Brand;
};
