// Origin matching shared by `cors({ origin })` and the WebSocket origin check
// (`allowedOrigins`): a string, a RegExp or a list of them means the same in both options.

/** Origins as exact strings, or RegExps tested against the whole `Origin` header. */
export type OriginRules = readonly (string | RegExp)[];

/** One entry of an origin list: a string or a RegExp. */
export function isOriginItem(value: unknown): value is string | RegExp {
  return typeof value === 'string' || value instanceof RegExp;
}

/**
 * The rules as private copies: a RegExp with the `g` or `y` flag keeps a `lastIndex` between
 * `test()` calls (so it would match every other request), and the caller's object may change later.
 */
export function ownOriginRules(rule: string | RegExp | OriginRules): OriginRules {
  const items = typeof rule === 'string' || rule instanceof RegExp ? [rule] : rule;
  return Object.freeze(items.map((item) => (typeof item === 'string' ? item : new RegExp(item))));
}

/** Whether `origin` is one of the rules' strings or matches one of their RegExps. */
export function matchesOrigin(rules: OriginRules, origin: string): boolean {
  for (const item of rules) {
    if (typeof item === 'string') {
      if (item === origin) return true;
      continue;
    }
    item.lastIndex = 0;
    if (item.test(origin)) return true;
  }
  return false;
}
