// The renaming a variant applies: a permutation of the 26 ASCII letters, drawn from the run's seed and the case's
// name, that moves every letter (one cycle through all 26) and maps upper and lower case alike. A permutation of
// letters, unlike a table of new names, keeps everything a case's results depend on but the letters themselves:
// every length, every line and byte offset, which names are hidden (a leading dot), which strings contain which
// (a grep pattern still matches the renamed lines it matched before), and which are equal.

// Maps one character: a letter to its image, anything else to itself.
export type LetterMap = (ch: string) => string;

const LOWER = 'abcdefghijklmnopqrstuvwxyz';

// The permutation for `name` under `seed`: Sattolo's shuffle, so that no letter maps to itself.
export function letterMap(seed: number, name: string): LetterMap {
  const next = random(hash(`${seed}\u0000${name}`));
  const image = LOWER.split('');
  for (let i = image.length - 1; i > 0; i--) {
    const j = Math.floor(next() * i);
    [image[i], image[j]] = [image[j] as string, image[i] as string];
  }
  const table = new Map<string, string>();
  for (const [k, ch] of [...LOWER].entries()) {
    table.set(ch, image[k] as string);
    table.set(ch.toUpperCase(), (image[k] as string).toUpperCase());
  }
  return (ch) => table.get(ch) ?? ch;
}

// Whether `ch` is an ASCII letter, the only characters a variant renames.
export function isLetter(ch: string | undefined): boolean {
  return ch !== undefined && /^[A-Za-z]$/.test(ch);
}

// Every letter of `text` mapped.
export function mapAll(text: string, map: LetterMap): string {
  return text.replace(/[A-Za-z]/g, map);
}

// FNV-1a over UTF-16 code units: a 32-bit seed for the generator from any string.
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

// mulberry32: a small, fast generator of numbers in [0, 1), the same on every machine for the same seed.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
