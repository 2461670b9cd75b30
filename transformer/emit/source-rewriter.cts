/**
 * The text the checker sees for a file with Kiln parameter decorators: each decorator replaced by
 * spaces of the same length (line breaks kept), the generated code appended after the last
 * original character. Every original position stays where it was, so type errors and source
 * maps point at the user's real line and column.
 */
export function rewriteSource(
  text: string,
  ranges: readonly { readonly start: number; readonly end: number }[],
  generated: string,
): string {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  let result = '';
  let at = 0;
  for (const { start, end } of sorted) {
    result += text.slice(at, start) + text.slice(start, end).replace(/[^\r\n]/g, ' ');
    at = end;
  }
  return result + text.slice(at) + generated;
}
