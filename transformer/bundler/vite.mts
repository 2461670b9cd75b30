/**
 * `@kiln/core/vite`: Kiln's build as a Vite plugin (and so for vitest). Each TypeScript file with
 * Kiln decorators (or typia calls) is analysed on the project's type-checked program and handed
 * on as JavaScript with its binders and validators; other files are left to Vite.
 *
 * @example
 * ```ts
 * // vitest.config.ts
 * import { defineConfig } from 'vitest/config';
 * import kiln from '@kiln/core/vite';
 * export default defineConfig({ plugins: [kiln()], test: { include: ['test/*.spec.ts'] } });
 * ```
 *
 * @module @kiln/core/vite
 */
import { kilnUnplugin, type KilnPluginOptions } from './kiln-unplugin.mjs';

export type { KilnPluginOptions };
export type { KilnBuildOptions } from './kiln-build-service.cjs';
export type { OpenApiOptions } from '../openapi/openapi-types.cjs';
export type { TypedClientOptions } from '../client/client-generation.cjs';
export type { TypedResponsesOption } from '../analyse/return-type.cjs';

const kiln: (options?: KilnPluginOptions) => import('vite').Plugin = kilnUnplugin.vite as never;
export default kiln;
