// Secrets hidden in base64: a `.env` line piped through `base64` (`QU5USFJPUElDX0FQSV9LRVk9…`), a Kubernetes
// Secret's `data:`, a GitHub API file's `content` (wrapped every 60 characters). A run of base64 or base64url
// long enough to hold a key is decoded; when that gives text and the text holds a secret, the whole run is one.
// Binary (a PNG, a tarball) decodes to bytes that are no text, and is known from its first few hundred characters,
// so a megabyte blob costs no more than a line of prose. Scanned by hand: a regular expression matching a run of
// megabytes overflows the regexp engine's stack.

// The shortest run looked at: 18 bytes, `API_KEY=` and ten characters of a key.
const SHORTEST = 24;
// How much of a run's start tells text from binary.
const SNIFF = 400;
// The most of one run decoded: a bound on the work a long line of encoded text costs.
const LONGEST = 256 * 1024;
// A wrapped run's lines are this long at least (`base64` wraps at 76, PEM and GitHub at 64 and 60).
const SHORTEST_WRAP = 40;

// The rule that finds a secret in a decoded text (undefined: none does).
export type RuleFinding = (decoded: string) => string | undefined;

// The runs of base64 whose decoded text holds a secret, as [start, end) of `text`, each with the rule that found it.
export function base64Secrets(text: string, ruleFinding: RuleFinding): [number, number, string][] {
  const found: [number, number, string][] = [];
  for (const [start, end] of base64Runs(text)) {
    const encoded = text.slice(start, Math.min(end, start + LONGEST)).replace(/\r?\n/g, '');
    if (encoded.length < SHORTEST || !isText(decode(encoded.slice(0, SNIFF)))) continue;
    const rule = ruleFinding(decode(encoded));
    if (rule !== undefined) found.push([start, end, rule]);
  }
  return found;
}

function decode(encoded: string): string {
  // Node's decoder takes both alphabets (`+/` and `-_`) and ignores a missing padding.
  return Buffer.from(encoded.slice(0, encoded.length - (encoded.length % 4)), 'base64').toString('utf8');
}

// Text, not bytes: nearly every character printable (a replacement character is a byte that was no UTF-8).
function isText(decoded: string): boolean {
  if (decoded.length === 0) return false;
  let printable = 0;
  for (let i = 0; i < decoded.length; i++) {
    const c = decoded.charCodeAt(i);
    if ((c >= 0x20 && c !== 0x7f && c !== 0xfffd) || c === 0x09 || c === 0x0a || c === 0x0d) printable += 1;
  }
  return printable >= decoded.length * 0.95;
}

const isBase64 = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x2b ||
  c === 0x2f ||
  c === 0x2d ||
  c === 0x5f;

// The runs of base64 characters with their padding, as [start, end): a run wrapped on lines of one length (a
// multiple of 4, unpadded) goes on after each line break.
function* base64Runs(text: string): Generator<[number, number]> {
  for (let i = 0; i < text.length; ) {
    if (!isBase64(text.charCodeAt(i))) {
      i += 1;
      continue;
    }
    const start = i;
    let wrap = -1;
    for (;;) {
      const line = i;
      while (i < text.length && isBase64(text.charCodeAt(i))) i += 1;
      const length = i - line;
      const padded = text[i] === '=';
      while (i < text.length && text[i] === '=' && i - line < length + 2) i += 1;
      const breakLength = text.startsWith('\r\n', i) ? 2 : text[i] === '\n' ? 1 : 0;
      const wraps =
        !padded &&
        breakLength > 0 &&
        length % 4 === 0 &&
        length >= SHORTEST_WRAP &&
        (wrap === -1 || length === wrap) &&
        isBase64(text.charCodeAt(i + breakLength));
      if (!wraps) break;
      wrap = length;
      i += breakLength;
    }
    if (i - start >= SHORTEST) yield [start, i];
  }
}
