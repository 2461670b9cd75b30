/**
 * `@kiln/core/esbuild`: Kiln's build as an esbuild plugin. Each TypeScript file with Kiln
 * decorators (or typia calls) is analysed on the project's type-checked program and handed to
 * esbuild as JavaScript with its binders and validators; other files are left to esbuild.
 *
 * @example
 * ```js
 * import { build } from 'esbuild';
 * import kiln from '@kiln/core/esbuild';
 * await build({ entryPoints: ['src/main.ts'], bundle: true, platform: 'node', format: 'esm', outfile: 'dist/server.mjs', plugins: [kiln()] });
 * ```
 *
 * @module @kiln/core/esbuild
 */
import type { OnLoadArgs, OnLoadOptions, OnLoadResult, PartialMessage, Plugin, PluginBuild } from 'esbuild';
import { kilnUnplugin, type KilnPluginOptions } from './kiln-unplugin.mjs';
import { sharedHelperModule, sharedHelperSource } from './shared-emit-helpers.cjs';

export type { KilnPluginOptions };
export type { KilnBuildOptions } from './kiln-build-service.cjs';
export type { OpenApiOptions } from '../openapi/openapi-types.cjs';
export type { TypedClientOptions } from '../client/client-generation.cjs';
export type { TypedResponsesOption } from '../analyse/return-type.cjs';

type OnLoadCallback = (args: OnLoadArgs) => OnLoadResult | null | undefined | Promise<OnLoadResult | null | undefined>;

/** An error's source line, carried in `detail` by kiln-unplugin.mts, moved to where esbuild prints it. */
function withLineText(message: PartialMessage): PartialMessage {
  const lineText = (message.detail as { lineText?: unknown } | undefined)?.lineText;
  if (typeof lineText !== 'string' || !message.location) return message;
  return { ...message, detail: undefined, location: { ...message.location, lineText } };
}

/** The build object with `onLoad` results passed through `withLineText`; every other member as esbuild gave it. */
function placingLineTexts(build: PluginBuild): PluginBuild {
  const onLoad = (options: OnLoadOptions, callback: OnLoadCallback) =>
    build.onLoad(options, async (args) => {
      const result = await callback(args);
      return result?.errors ? { ...result, errors: result.errors.map(withLineText) } : result;
    });
  return new Proxy(build, { get: (target, key, receiver) => (key === 'onLoad' ? onLoad : Reflect.get(target, key, receiver)) });
}

/**
 * `@kiln/core` imports `@fastify/busboy` (uploads) with a literal `import()`, so that a bundle for
 * Node, Bun or Deno carries it. Left out (external) where it cannot be used: a bundle for a runtime
 * without `node:fs` (`platform` other than `'node'`: Workers), a project that does not install it
 * (an app without uploads builds as before; a multipart body then answers 500 with KILN013), and a
 * build that marks it external itself. `ws` (WebSockets on Node) is always left out: the bundle
 * imports it from node_modules when it listens (KILN096 when it is not installed).
 */
function optionalUploadParser(build: PluginBuild): void {
  build.onResolve({ filter: /^(@fastify\/busboy|ws)$/ }, async (args) => {
    if ((args.pluginData as { kilnResolvingBusboy?: boolean } | undefined)?.kilnResolvingBusboy === true) return undefined;
    // ws is CommonJS that requires Node's built-ins, which an ES module bundle cannot: always imported from node_modules.
    if (args.path === 'ws') return { path: args.path, external: true };
    if ((build.initialOptions.platform ?? 'browser') !== 'node') return { path: args.path, external: true };
    const found = await build.resolve(args.path, {
      kind: args.kind,
      resolveDir: args.resolveDir,
      importer: args.importer,
      pluginData: { kilnResolvingBusboy: true },
    });
    // Not installed, or marked external by the build itself: left to the runtime to import.
    return found.errors.length > 0 || found.external
      ? { path: args.path, external: true }
      : { path: found.path, sideEffects: found.sideEffects };
  });
}

/** TypeScript's decorator helpers, one module each, which the files Kiln compiled for a bundle import (shared-emit-helpers.cts). */
function sharedEmitHelpers(build: PluginBuild): void {
  build.onResolve({ filter: sharedHelperModule }, (args) => ({ path: args.path, namespace: 'kiln-ts-helper' }));
  build.onLoad({ filter: /.*/, namespace: 'kiln-ts-helper' }, (args) => {
    const contents = sharedHelperSource(args.path);
    return contents === undefined ? { errors: [{ text: `@kiln/core: no TypeScript helper ${args.path}` }] } : { contents, loader: 'js' };
  });
}

const kiln = (options?: KilnPluginOptions): Plugin => {
  const plugin = kilnUnplugin.esbuild(options);
  return {
    ...plugin,
    setup: (build) => {
      optionalUploadParser(build);
      sharedEmitHelpers(build);
      return plugin.setup(placingLineTexts(build));
    },
  };
};
export default kiln;
