// Cases that add noise: a repeat of an earlier case.
import { describe, expect, it } from 'vitest';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import { repeatedCases } from '../../../src/record/write/case-noise.ts';

const data = (files: Record<string, string>, command: string): DispatchCaseData =>
  ({ files, calls: [{ tool: 'Bash', input: { command } }] }) as unknown as DispatchCaseData;

describe('repeatedCases', () => {
  it('names the earlier case a repeat makes again; other files or other calls are no repeat', () => {
    const cases = [
      { name: 'a', data: data({ 'x.txt': '1' }, 'cat x.txt') },
      { name: 'b', data: data({ 'x.txt': '2' }, 'cat x.txt') },
      { name: 'c', data: data({ 'x.txt': '1' }, 'cat x.txt') },
      { name: 'd', data: data({ 'x.txt': '1' }, 'wc x.txt') },
    ];
    expect(repeatedCases(cases)).toEqual(
      new Map([['c', { why: 'the same calls from the same files as a', recordedBefore: [] }]]),
    );
  });
});

describe('repeatedCases across snapshots of one growing session (issue 27)', () => {
  const of = (session: string, ids: string[]): DispatchCaseData =>
    ({
      files: {},
      calls: ids.map((id) => ({ tool: 'Bash', input: { command: `echo ${id}` } })),
      source: { format: 'claude-code', session, tool_use_ids: ids },
    }) as unknown as DispatchCaseData;

  it('does not write again what cases recorded before hold, however the session was cut, and says which', () => {
    // The first snapshot of the session was recorded earlier, as two cases; the grown session is cut otherwise.
    const before = [
      { name: 'early-01', data: of('s1', ['t1', 't2']) },
      { name: 'early-02', data: of('s1', ['t3']) },
    ];
    const cases = [
      { name: 'late-01', data: of('s1', ['t2', 't3']) },
      { name: 'late-02', data: of('s1', ['t3', 't4']) },
      { name: 'other', data: of('s2', ['t1']) },
    ];
    expect(repeatedCases(cases, before)).toEqual(
      new Map([
        [
          'late-01',
          {
            why: 'its calls are in early-01, early-02 already (the same session), recorded before',
            recordedBefore: ['early-01', 'early-02'],
          },
        ],
      ]),
    );
  });

  it('within one run too: a case whose calls an earlier case of the run holds', () => {
    const cases = [
      { name: 'big', data: of('s1', ['t1', 't2', 't3']) },
      { name: 'small', data: of('s1', ['t2']) },
    ];
    expect(repeatedCases(cases)).toEqual(
      new Map([['small', { why: 'its calls are in big already (the same session)', recordedBefore: [] }]]),
    );
  });
});
