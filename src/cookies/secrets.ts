import { kilnError } from '../kiln-error.js';

/** Shortest secret accepted: 32 characters, as a 256-bit key would be written at the least. */
export const shortestSecret = 32;

/**
 * A list of secrets, newest first, checked once at start-up: rotation means putting a new secret
 * first and keeping the old ones until every cookie signed with them has expired.
 */
export function checkedSecrets(secrets: unknown, what: string): readonly string[] {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (!Array.isArray(list) || list.length === 0) throw kilnError('KILN083', 'noSecrets', what);
  list.forEach((secret, index) => {
    if (typeof secret !== 'string' || secret.length < shortestSecret)
      throw kilnError(
        'KILN083',
        'shortSecret',
        what,
        index,
        shortestSecret,
        typeof secret === 'string' ? `${secret.length} characters` : typeof secret,
      );
  });
  return Object.freeze([...list]);
}
