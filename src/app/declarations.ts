// Reading what the decorators left on a class, for the start-up checks.

/** The decorator metadata of a class, if any decorator left some. */
export function metadataOf(target: Function): DecoratorMetadataObject | undefined {
  return (target as unknown as Record<symbol, DecoratorMetadataObject | null | undefined>)[Symbol.metadata] ?? undefined;
}

/** A class or function by name, for messages. */
export function describe(target: unknown): string {
  return typeof target === 'function' ? target.name || '(anonymous)' : String(target);
}
