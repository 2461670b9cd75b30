// One plugin for every bundler unplugin supports: `@kiln/core/esbuild` and `@kiln/core/vite` are
// this factory seen through esbuild's and Vite's plugin APIs.
import { createUnplugin, type UnpluginFactory } from 'unplugin';
import { KilnBuildService, type BuildMessage, type KilnBuildOptions } from './kiln-build-service.cjs';

export type KilnPluginOptions = KilnBuildOptions;

const typeScriptModule = /\.[cm]?tsx?$/;

function located(message: BuildMessage): string {
  return message.file === undefined ? message.text : `${message.file}:${message.line}:${(message.column ?? 0) + 1}: ${message.text}`;
}

export const kilnPluginFactory: UnpluginFactory<KilnPluginOptions | undefined> = (options, meta) => {
  // Created on first use: a bundler may load the config without building anything.
  let service: KilnBuildService | undefined;
  // esbuild with `bundle: true` resolves the shared helper modules the service's output imports (esbuild.mts).
  let bundled = false;
  // Files handed over as JavaScript; esbuild compiles the others by their extension.
  const compiled = new Set<string>();
  return {
    name: 'kiln',
    enforce: 'pre',
    transformInclude(id) {
      const file = id.split('?')[0]!;
      return typeScriptModule.test(file) && !/\.d\.[cm]?ts$/.test(file) && !/[\\/]node_modules[\\/]/.test(file);
    },
    transform(code, id) {
      const fileName = id.split('?')[0]!;
      service ??= new KilnBuildService(options, { bundled });
      const result = service.transform(fileName, code);
      if (result === undefined) return undefined;
      for (const file of result.watchFiles) this.addWatchFile(file);
      if (result.errors.length > 0) {
        // Bundlers place an error in the module being transformed; one elsewhere (KILN130 in tsconfig.json) names its place in the text.
        const inFile = (error: BuildMessage) => error.file === fileName;
        const reported = (error: BuildMessage) => ({
          message: inFile(error) ? error.text : located(error),
          id: fileName,
          loc: inFile(error) ? { file: fileName, line: error.line!, column: error.column! } : undefined,
        });
        if (meta.framework === 'esbuild') {
          // esbuild lists every error with its place, and prints the source line under it: unplugin passes
          // no line text on, so it travels in `meta` (esbuild's `detail`) and esbuild.mts puts it in place.
          const lines = code.split('\n');
          for (const error of result.errors) {
            this.error({ ...reported(error), meta: inFile(error) ? { lineText: lines[error.line! - 1] ?? '' } : undefined });
          }
          return { code };
        }
        // Rollup and Vite stop at the first error: it carries the place, and the message lists them all.
        const first = reported(result.errors[0]!);
        this.error(result.errors.length === 1 ? first : { ...first, message: result.errors.map(located).join('\n') });
      }
      for (const warning of result.warnings ?? []) {
        this.warn({ message: warning.text, id: fileName, loc: { file: fileName, line: warning.line!, column: warning.column! } });
      }
      compiled.add(fileName);
      return { code: result.code, map: result.map };
    },
    esbuild: {
      // esbuild asks the plugin about each file it loads, on every rebuild, over its pipe: only
      // TypeScript files, not the JavaScript ones (Kiln's runtime, packages), which Kiln never changes.
      onLoadFilter: typeScriptModule,
      // Bundling renames colliding classes (`BooksController2`); Kiln's messages and app.routes name them as written.
      config(initialOptions) {
        initialOptions.keepNames ??= true;
        bundled = initialOptions.bundle === true;
      },
      loader: (_code, id) => (compiled.has(id) ? 'js' : /\.[cm]?tsx$/.test(id) ? 'tsx' : 'ts'),
    },
  };
};

export const kilnUnplugin = createUnplugin(kilnPluginFactory);
