// Reading what the decorators left on a class, for the start-up checks.

export const pluginHint =
  '@kiln/core/transformer did not run on this file. Add { "transform": "@kiln/core/transformer", "transformProgram": true } ' +
  'to compilerOptions.plugins in tsconfig.json and build with tspc (ts-patch), or bundle with @kiln/core/esbuild or ' +
  '@kiln/core/vite, or run with node --import @kiln/core/register (docs: guide/build-tools.md).';

/** The decorator metadata of a class, if any decorator left some. */
export function metadataOf(target: Function): DecoratorMetadataObject | undefined {
  return (target as unknown as Record<symbol, DecoratorMetadataObject | null | undefined>)[Symbol.metadata] ?? undefined;
}

/** A class or function by name, for messages. */
export function describe(target: unknown): string {
  return typeof target === 'function' ? target.name || '(anonymous)' : String(target);
}
