// The rest of a secret wrapped onto the next line is found only right after a secret that ends at the line break.
import { describe, expect, it } from 'vitest';
import { continuations, standInEnds } from '../../../src/record/map/secret-continuations.ts';

const REST = 'nM4bV8xC3zK6qW1rT5yH0jP2lD7gS9fA4uE6oI3mN8bV1cX5zQ7wR2tY-SplitAA';

describe('continuations', () => {
  it.each([
    ['after \\n', `KEY=sk-ant-abc\n${REST}\nnext`, 14, [[15, 15 + REST.length]]],
    ['after \\r\\n, with padding', `KEY=abc\r\n${REST}==`, 7, [[9, 11 + REST.length]]],
    ['a hex digest', 'k=abc\n3f1e9c2b7a6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f', 5, [[6, 46]]],
  ])('finds the rest %s', (_what, text, end, found) => {
    expect(continuations(text, [end])).toEqual(found);
  });

  it.each([
    ['a secret that ends mid-line', `KEY=abc ${REST}`, 7],
    ['a name', 'KEY=abc\nsnake_case_function_names_here\n', 7],
    ['a path or an assignment', `KEY=abc\n${REST}/x\nKEY=abc\n${REST}=1`, 7],
    ['a short token', 'KEY=abc\nab12cd34ef\n', 7],
  ])('leaves %s', (_what, text, end) => {
    expect(continuations(text, [end])).toEqual([]);
  });
});

describe('standInEnds', () => {
  it("finds where each redaction's stand-in ends", () => {
    expect(standInEnds('a=<redacted:github-token>\nb <redacted> <redacted:x y>')).toEqual([25, 38, 53]);
  });
});
