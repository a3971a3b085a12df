import { describe, expect, it } from 'vitest';
import { countLines, lineAt, lineTally, offsetAfterLine, splitLines } from '../../src/tools/lines.ts';

describe('splitLines and countLines agree', () => {
  const rows: Array<[string, string[]]> = [
    ['', []],
    ['a', ['a']],
    ['a\n', ['a']],
    ['a\nb', ['a', 'b']],
    ['\n', ['']],
    ['\n\n', ['', '']],
    ['a\r\nb\r\n', ['a', 'b']],
    ['a\r', ['a\r']],
    ['a\r\r\n', ['a\r']],
  ];
  it.each(rows)('%j', (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
    expect(countLines(Buffer.from(text))).toBe(lines.length);
  });
});

describe('offsetAfterLine', () => {
  const rows: Array<[string, number, number]> = [
    ['a\nb\n', 0, 0],
    ['a\nb\n', 1, 2],
    ['a\nb\n', 2, 4],
    ['a\nb', 2, 3],
    ['é\nb', 1, 3],
  ];
  it.each(rows)('%j after line %i is byte %i', (text, line, offset) => {
    expect(offsetAfterLine(Buffer.from(text), line)).toBe(offset);
  });
});

describe('lineAt', () => {
  const rows: Array<[string, number, number]> = [
    ['abc', 0, 1],
    ['a\nb\nc', 2, 2],
    ['a\nb\nc', 1, 1],
    ['a\nb\nc', 4, 3],
  ];
  it.each(rows)('%j byte %i is on line %i', (text, offset, line) => {
    expect(lineAt(Buffer.from(text), offset)).toBe(line);
  });
});

describe('lineTally', () => {
  it.each([
    [0, '0 lines'],
    [1, '1 line'],
    [2, '2 lines'],
  ])('%i → %s', (count, text) => {
    expect(lineTally(count)).toBe(text);
  });
});
