import { describe, expect, it } from 'vitest';
import { CappedText } from '../../src/tools/capped-text.ts';

function decode(chunks: Buffer[], limit: number): string {
  const text = new CappedText(limit);
  for (const chunk of chunks) text.write(chunk);
  return text.end();
}

describe('CappedText', () => {
  const euro = Buffer.from('€');
  const rows: Array<{ name: string; chunks: Buffer[]; limit: number; expected: string }> = [
    { name: 'under the limit', chunks: [Buffer.from('ab'), Buffer.from('c')], limit: 5, expected: 'abc' },
    { name: 'at the limit', chunks: [Buffer.from('abcde')], limit: 5, expected: 'abcde' },
    {
      name: 'over, counted across chunks',
      chunks: [Buffer.from('abc'), Buffer.from('defg')],
      limit: 5,
      expected: 'abcde\n[output truncated: 2 more characters]',
    },
    {
      name: 'a character split between chunks',
      chunks: [euro.subarray(0, 1), euro.subarray(1)],
      limit: 5,
      expected: '€',
    },
    {
      name: 'a truncated trailing sequence is flushed as U+FFFD',
      chunks: [euro.subarray(0, 2)],
      limit: 5,
      expected: '\uFFFD',
    },
    {
      name: 'a surrogate pair is not split at the limit',
      chunks: [Buffer.from('ab😀')],
      limit: 3,
      expected: 'ab\n[output truncated: 2 more characters]',
    },
  ];
  it.each(rows)('$name', ({ chunks, limit, expected }) => {
    expect(decode(chunks, limit)).toBe(expected);
  });
});
