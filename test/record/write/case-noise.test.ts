// Cases that add noise: a repeat of an earlier case.
import { describe, expect, it } from 'vitest';
import type { CaseFile } from '../../../src/course/types.ts';
import { repeatedCases } from '../../../src/record/write/case-noise.ts';

const data = (files: Record<string, string>, command: string): CaseFile =>
  ({ files, calls: [{ tool: 'Bash', input: { command } }] }) as unknown as CaseFile;

describe('repeatedCases', () => {
  it('names the earlier case a repeat makes again; other files or other calls are no repeat', () => {
    const cases = [
      { name: 'a', data: data({ 'x.txt': '1' }, 'cat x.txt') },
      { name: 'b', data: data({ 'x.txt': '2' }, 'cat x.txt') },
      { name: 'c', data: data({ 'x.txt': '1' }, 'cat x.txt') },
      { name: 'd', data: data({ 'x.txt': '1' }, 'wc x.txt') },
    ];
    expect(repeatedCases(cases)).toEqual(new Map([['c', 'the same calls from the same files as a']]));
  });
});
