// The output kept per case: the last characters, with a count of what was dropped.
import { describe, expect, it } from 'vitest';
import { TailBuffer } from '../../../src/grade/run/tail-buffer.ts';

describe('TailBuffer', () => {
  it('keeps everything under the limit', () => {
    const buffer = new TailBuffer(10);
    buffer.push('abc');
    buffer.push('def');
    expect(buffer.take()).toBe('abcdef');
  });

  it('keeps the last characters past the limit and says how many it dropped', () => {
    const buffer = new TailBuffer(4);
    for (const chunk of ['abc', 'defg', 'hi']) buffer.push(chunk);
    expect(buffer.take()).toBe('[… 5 earlier characters not kept …]\nfghi');
  });

  it('starts afresh after each take', () => {
    const buffer = new TailBuffer(2);
    buffer.push('abcd');
    buffer.take();
    buffer.push('x');
    expect(buffer.take()).toBe('x');
  });
});
