import { HttpError } from '../http-error.js';

/** The 400 for a body that is not valid JSON. Non-strict binders catch exactly this one. */
export class BodyParseError extends HttpError {}

const quote = 0x22;
const backslash = 0x5c;

/**
 * True when JSON text nests arrays and objects more than `limit` deep. A byte scan, no parsing and
 * no recursion, that stops at the first level too deep: run before `JSON.parse`, so that a
 * 100,000-level body costs one pass over its bytes and never reaches a recursive validator or
 * serialiser. Brackets inside strings do not count (UTF-8 continuation bytes are never ASCII).
 */
export function nestedDeeperThan(bytes: Uint8Array, limit: number): boolean {
  // A body can only be as deep as it is long.
  if (bytes.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (inString) {
      if (byte === backslash) i++;
      else if (byte === quote) inString = false;
    } else if (byte === quote) inString = true;
    else if (byte === 0x5b /* [ */ || byte === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (byte === 0x5d /* ] */ || byte === 0x7d /* } */) depth--;
  }
  return false;
}

/**
 * Parses a JSON request body: `400 Failed to parse JSON body: <detail>` when it is not JSON (an
 * empty body included), `400 JSON body is nested deeper than <n> levels` past `maxDepth`.
 */
export function parseJsonBody(bytes: Buffer, maxDepth: number): unknown {
  if (nestedDeeperThan(bytes, maxDepth)) {
    throw new HttpError(400, `JSON body is nested deeper than ${maxDepth} levels (maxBodyDepth)`);
  }
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new BodyParseError(400, `Failed to parse JSON body: ${(error as Error).message}`);
  }
}
