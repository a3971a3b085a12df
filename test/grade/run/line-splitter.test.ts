// Lines out of a byte stream, whatever the chunking.
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../../src/grade/run/line-splitter.ts';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('LineSplitter', () => {
  it.each([
    ['one chunk, two lines', ['a\nb\n'], [['a', 'b']]],
    ['a line across chunks', ['{"res', 'ults":[]}\n'], [[], ['{"results":[]}']]],
    ['an empty line', ['\n'], [['']]],
    ['a line and the start of the next', ['a\nb', 'c\n'], [['a'], ['bc']]],
  ])('%s', (_, chunks, expected) => {
    const splitter = new LineSplitter(100);
    expect(chunks.map((c) => splitter.push(bytes(c)).lines)).toEqual(expected);
  });

  it('keeps a UTF-8 character split between chunks whole', () => {
    const splitter = new LineSplitter(100);
    const euro = bytes('€\n');
    expect(splitter.push(euro.subarray(0, 2)).lines).toEqual([]);
    expect(splitter.push(euro.subarray(2)).lines).toEqual(['€']);
  });

  it('reports overflow once the unfinished line is past the limit', () => {
    const splitter = new LineSplitter(4);
    expect(splitter.push(bytes('abcd')).overflow).toBe(false);
    expect(splitter.push(bytes('e')).overflow).toBe(true);
  });

  it('does not count completed lines towards the limit', () => {
    const splitter = new LineSplitter(4);
    expect(splitter.push(bytes('abcd\nabcd\nab'))).toEqual({ lines: ['abcd', 'abcd'], overflow: false });
  });

  it('gives back an unfinished last line once, at the end', () => {
    const splitter = new LineSplitter(100);
    splitter.push(bytes('a\nlast'));
    expect(splitter.flush()).toBe('last');
    expect(splitter.flush()).toBeUndefined();
  });
});
