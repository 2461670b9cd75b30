// The phantom properties by which the transformer recognises Kiln's decorators and tokens from
// their types (so aliases and re-exports work). The runtime declares each on the type named
// beside it; the transformer never imports the runtime, so test/transformer/runtime-contract.test.ts
// holds the two sides together.
export const runtimeBrands = {
  /** `ParameterBinding` in src/decorators/parameters.ts: the source and name of a parameter decorator. */
  parameter: '__kilnParameter',
  /** `KilnDecorator` in src/decorators/kiln-decorator.ts: a route, controller or middleware decorator. */
  decorator: '__kilnDecorator',
  /** `InjectionBinding` in src/injection/decorators.ts: `@Inject` and `@Scope`. */
  injection: '__kilnInjection',
  /** `InjectableDecorator` in src/injection/decorators.ts: `@Injectable()`. */
  injectable: '__kilnInjectable',
  /** `InjectionToken` in src/injection/injection-token.ts: the type of the value a token provides. */
  tokenType: '__kilnTokenType',
} as const;
