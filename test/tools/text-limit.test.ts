import { describe, expect, it } from 'vitest';
import { byCodePoint, cut } from '../../src/tools/text-limit.ts';

describe('cut', () => {
  const rows: Array<[string, number, string]> = [
    ['abc', 5, 'abc'],
    ['abc', 3, 'abc'],
    ['abc', 2, 'ab'],
    ['a😀b', 2, 'a'],
    ['a😀b', 3, 'a😀'],
    ['😀', 1, ''],
  ];
  it.each(rows)('%j to %i is %j', (text, max, expected) => {
    expect(cut(text, max)).toBe(expected);
  });
});

describe('byCodePoint', () => {
  it('orders astral characters after the rest of the BMP, unlike the default sort', () => {
    const names = ['😀', 'ｚ', 'a', 'B', 'é'];
    expect([...names].sort(byCodePoint)).toEqual(['B', 'a', 'é', 'ｚ', '😀']);
    expect([...names].sort()).not.toEqual([...names].sort(byCodePoint));
  });
});
