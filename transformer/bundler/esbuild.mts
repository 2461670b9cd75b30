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
 */
import { kilnUnplugin, type KilnPluginOptions } from './kiln-unplugin.mjs';

export type { KilnPluginOptions };

const kiln: (options?: KilnPluginOptions) => import('esbuild').Plugin = kilnUnplugin.esbuild;
export default kiln;
