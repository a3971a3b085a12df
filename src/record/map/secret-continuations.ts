// A key wrapped onto the next line: a terminal or an editor cuts a long line, and its first half is a secret found
// (or redacted already) that runs to the line break. The second half is no shape of its own, but a long random
// token starting the next line right after a secret is that secret's rest. A token that reads as words or a name
// (`snake_case_names_of_things`), or a normal line before it, is left alone.

// The shortest rest of a key.
const SHORTEST = 20;
// Bits of Shannon entropy per character a random token has at least (a hex digest has about 3.7).
const RANDOM_BITS = 3.4;

// What redaction left where a secret was (`<redacted:anthropic-key>`, an author's pattern's `<redacted>`).
const STAND_IN = /<redacted(?::[A-Za-z0-9_. ()-]{1,60})?>/g;

// Where each stand-in a redaction already put in `text` ends.
export function standInEnds(text: string): number[] {
  if (!text.includes('<redacted')) return [];
  return [...text.matchAll(STAND_IN)].map((m) => (m.index ?? 0) + m[0].length);
}

// The rest of each secret that ends at a line break (`ends`, exclusive), as [start, end) of `text`.
export function continuations(text: string, ends: Iterable<number>): [number, number][] {
  const found: [number, number][] = [];
  for (const end of new Set(ends)) {
    const start = end + (text.startsWith('\r\n', end) ? 2 : text[end] === '\n' ? 1 : 0);
    if (start === end) continue;
    let stop = start;
    while (stop < text.length && /[A-Za-z0-9_-]/.test(text[stop]!)) stop += 1;
    for (const padded = stop + 2; stop < padded && text[stop] === '='; ) stop += 1;
    // A token, not the start of a word, path or assignment.
    if (stop - start < SHORTEST || /[A-Za-z0-9_.\-/:=+(]/.test(text[stop] ?? ' ')) continue;
    if (looksRandom(text.slice(start, stop).replace(/=+$/, ''))) found.push([start, stop]);
  }
  return found;
}

// Random, not words: letters and digits mixed, and as many distinct characters as a random string has.
function looksRandom(token: string): boolean {
  if (!/[0-9]/.test(token) || !/[A-Za-z]/.test(token)) return false;
  const counts = new Map<string, number>();
  for (const c of token) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / token.length) * Math.log2(n / token.length);
  return bits >= RANDOM_BITS;
}
