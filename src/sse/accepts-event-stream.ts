/**
 * Whether an `Accept` header admits `text/event-stream` (RFC 9110 §12.5.1): absent, or a media
 * range `text/event-stream`, `text/*` or `*\/*` with a q-value above 0. Parameters other than `q`
 * are ignored.
 */
export function acceptsEventStream(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  let best = -1;
  let accepted = false;
  for (const range of accept.split(',')) {
    const [type = '', ...parameters] = range.split(';');
    const media = type.trim().toLowerCase();
    // The most specific range that matches decides (RFC 9110: "text/event-stream;q=0, */*" refuses it).
    const specificity = media === 'text/event-stream' ? 2 : media === 'text/*' ? 1 : media === '*/*' ? 0 : -1;
    if (specificity < best || specificity === -1) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [name = '', value = ''] = parameter.split('=');
      if (name.trim().toLowerCase() === 'q') q = Number(value.trim());
    }
    if (specificity > best) {
      best = specificity;
      accepted = q > 0;
    } else accepted ||= q > 0;
  }
  return best !== -1 && accepted;
}
