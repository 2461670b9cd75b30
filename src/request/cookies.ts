/**
 * Parses a `Cookie` header into a null-prototype object. The first occurrence of a name wins
 * (browsers send the most specific cookie first); a value that is not valid percent-encoding is
 * kept as sent rather than rejected, since cookies are often set by other software.
 */
export function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null);
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals === -1) continue;
    const name = pair.slice(0, equals).trim();
    if (name.length === 0 || name in cookies) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value.indexOf('%') !== -1) {
      try {
        value = decodeURIComponent(value);
      } catch {
        /* keep the raw value */
      }
    }
    cookies[name] = value;
  }
  return cookies;
}
