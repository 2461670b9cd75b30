/**
 * `@kiln/core/transformer`: the ts-patch plugin that compiles Kiln parameter decorators into typed
 * binders at build time. Configure it once in tsconfig.json and build with `tspc`:
 *
 * @example
 * ```jsonc
 * { "compilerOptions": { "plugins": [{ "transform": "@kiln/core/transformer", "transformProgram": true }] } }
 * ```
 */
import { transformProgram } from './program/program-transformer.cjs';

export = transformProgram;
