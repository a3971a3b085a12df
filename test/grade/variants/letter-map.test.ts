// The seeded permutation of letters: deterministic, moving every letter, case kept, nothing else touched.
import { describe, expect, it } from 'vitest';
import { isLetter, letterMap, mapAll } from '../../../src/grade/variants/letter-map.ts';

const LOWER = [...'abcdefghijklmnopqrstuvwxyz'];

describe('letterMap', () => {
  it.each([1, 2, 42, 987654321])('seed %i maps the 26 letters one to one, none to itself', (seed) => {
    const map = letterMap(seed, 'read-routes-to-view');
    const images = LOWER.map(map);
    expect(new Set(images).size).toBe(26);
    expect(images.every((ch, k) => ch !== LOWER[k] && isLetter(ch) && ch === ch.toLowerCase())).toBe(true);
    expect(LOWER.map((ch) => map(ch.toUpperCase()))).toEqual(images.map((ch) => ch.toUpperCase()));
  });

  it('is the same for the same seed and case, and differs between seeds and between cases', () => {
    const text = 'hello world';
    expect(mapAll(text, letterMap(7, 'a'))).toBe(mapAll(text, letterMap(7, 'a')));
    expect(mapAll(text, letterMap(7, 'a'))).not.toBe(mapAll(text, letterMap(8, 'a')));
    expect(mapAll(text, letterMap(7, 'a'))).not.toBe(mapAll(text, letterMap(7, 'b')));
  });

  it('leaves everything but ASCII letters as it is', () => {
    const map = letterMap(3, 'x');
    expect(mapAll('0-9 ._/~ é ß <> \n\t', map)).toBe('0-9 ._/~ é ß <> \n\t');
  });
});
