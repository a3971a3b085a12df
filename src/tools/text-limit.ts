// The first `max` characters (UTF-16 code units, as JavaScript counts them) of a text, one fewer when the
// cut would split a surrogate pair: truncated output stays valid text.
export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

// Sorts by Unicode code point, as the contract says (UTF-8 byte order is code point order; UTF-16's is not).
export function byCodePoint(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
