import { describe, expect, it } from 'vitest';
import { UNSEEN, unicodeEscape, unseenClass } from '../src/unseen-characters.ts';

const ALL = Object.keys(UNSEEN) as (keyof typeof UNSEEN)[];

describe('unseenClass', () => {
  it.each([
    ['c0', '\u001b'],
    ['del', '\u007f'],
    ['c1', '\u009b'],
    ['bidi', '\u202e'],
    ['bidi', '\u061c'],
    ['separators', '\u2028'],
    ['zeroWidth', '\u200b'],
    ['zeroWidth', '\ufeff'],
  ] as const)('a class of %s holds %j, and a class without it does not', (part, char) => {
    expect(unseenClass([part]).test(char)).toBe(true);
    expect(unseenClass(ALL.filter((p) => p !== part)).test(char)).toBe(false);
  });

  it('holds no printable ASCII, no letter beyond it, and no emoji', () => {
    const printable = Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCharCode(0x20 + i)).join('');
    expect(unseenClass(ALL, 'g').test(`${printable}é漢🙂`)).toBe(false);
  });

  it('adds the extra characters a writer names', () => {
    expect(unseenClass(['c0'], '', '":').test(':')).toBe(true);
  });
});

describe('unicodeEscape', () => {
  it('writes a character as the escape JSON reads back', () => {
    expect(JSON.parse(`"${unicodeEscape('\u202e')}"`)).toBe('\u202e');
    expect(unicodeEscape('\u0085')).toBe('\\u0085');
  });
});
