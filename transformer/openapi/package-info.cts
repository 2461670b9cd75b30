// The API's name and version when the build is not told them: the project's package.json. The
// OpenAPI document's `info` (without the option's `info`) and the typed client's header comment
// read it alike.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OpenApiInfo } from './openapi-types.cjs';

/** `name` and `version` of `projectDir`'s package.json; 'API' and '0.0.0' for what it lacks or when it cannot be read. */
export function packageInfo(projectDir: string): OpenApiInfo {
  try {
    const manifest = JSON.parse(readFileSync(resolve(projectDir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
    return {
      title: typeof manifest.name === 'string' ? manifest.name : 'API',
      version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
    };
  } catch {
    return { title: 'API', version: '0.0.0' };
  }
}
