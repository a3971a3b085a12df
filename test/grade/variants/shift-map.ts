// A letter map easy to read in tables: every letter one further (a→b, z→a, A→B).
import type { LetterMap } from '../../../src/grade/variants/letter-map.ts';

export const shift: LetterMap = (ch) => {
  const code = ch.charCodeAt(0);
  if (code >= 97 && code <= 122) return String.fromCharCode(((code - 97 + 1) % 26) + 97);
  if (code >= 65 && code <= 90) return String.fromCharCode(((code - 65 + 1) % 26) + 65);
  return ch;
};
