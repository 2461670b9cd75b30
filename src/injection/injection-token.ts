/**
 * A typed key for a value that has no class of its own (a configuration object, a client from
 * another library). The build checks that a parameter injected with `@Inject(token)` declares a
 * type that accepts `T`.
 *
 * @example
 * ```ts
 * export const CONFIG = new InjectionToken<AppConfig>('CONFIG');
 * createServer({ controllers, injections: [{ token: CONFIG, provide: { region: 'eu' } }] });
 * class Users { constructor(@Inject(CONFIG) config: AppConfig) {} }
 * ```
 */
export class InjectionToken<T> {
  /** Phantom: carries `T` for the type checker; never set. */
  declare readonly __kilnTokenType?: T;
  constructor(readonly description: string) {}
  toString(): string {
    return `InjectionToken(${this.description})`;
  }
}
