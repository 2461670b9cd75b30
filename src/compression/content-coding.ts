/** The content codings Kiln can produce, by their `Content-Encoding` token. */
export type ContentCoding = 'br' | 'gzip' | 'zstd';

/** What a client's `Accept-Encoding` allows, in the server's order of preference: the first one allowed wins among equal q-values. */
interface Preference {
  readonly coding: ContentCoding | 'identity';
  readonly q: number;
}

// Accept-Encoding values repeat (each browser sends one of a handful): parsed once each. Bounded,
// since the header is the client's text.
const decided = new Map<string, ContentCoding | undefined>();
const mostDecided = 256;

function qValue(parameters: string): number {
  const match = /(?:^|;)\s*q\s*=\s*([0-9.]+)\s*(?:;|$)/i.exec(parameters);
  if (match === null) return 1;
  const q = Number(match[1]);
  return Number.isFinite(q) && q >= 0 && q <= 1 ? q : 1;
}

/** The q-value the header gives each coding, `*` included; a coding it does not name is absent. */
function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const item of header.split(',')) {
    const semicolon = item.indexOf(';');
    const name = (semicolon === -1 ? item : item.slice(0, semicolon)).trim().toLowerCase();
    if (name === '') continue;
    const q = semicolon === -1 ? 1 : qValue(item.slice(semicolon + 1));
    // A coding named twice keeps its highest weight.
    weights.set(name, Math.max(q, weights.get(name) ?? 0));
  }
  return weights;
}

/**
 * The coding to answer with for an `Accept-Encoding` header (RFC 9110 12.5.3): the acceptable
 * coding with the highest q-value, ties broken by `preferred` (the server's order); `q=0` refuses
 * a coding, `*` stands for every coding the header does not name. `undefined` means identity: no
 * header, nothing acceptable, or identity weighted above every coding Kiln has.
 */
export function negotiateCoding(header: string | null, preferred: readonly ContentCoding[]): ContentCoding | undefined {
  if (header === null || header === '') return undefined;
  const key = header.length > 200 ? undefined : `${preferred.join()}|${header}`;
  if (key !== undefined && decided.has(key)) return decided.get(key);
  const weights = parseAcceptEncoding(header);
  const star = weights.get('*');
  let best: Preference = { coding: 'identity', q: weights.get('identity') ?? (star === 0 ? 0 : 0.001) };
  for (const coding of preferred) {
    const q = weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? star ?? 0;
    if (q > 0 && q > best.q) best = { coding, q };
    else if (q > 0 && q === best.q && best.coding === 'identity') best = { coding, q };
  }
  const answer = best.coding === 'identity' ? undefined : best.coding;
  if (key !== undefined) {
    if (decided.size >= mostDecided) decided.clear();
    decided.set(key, answer);
  }
  return answer;
}
