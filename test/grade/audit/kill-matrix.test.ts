import { describe, expect, it } from 'vitest';
import { auditPassed, killMatrix } from '../../../src/grade/audit/kill-matrix.ts';
import type { CaseResult } from '../../../src/grade/types.ts';

const pass = (name: string): CaseResult => ({ name, description: '', status: 'pass', durationMs: 1, output: '' });
const fail = (name: string, hint?: string): CaseResult => ({
  name,
  description: '',
  status: 'fail',
  durationMs: 1,
  output: '',
  failure: { kind: 'mismatch', message: 'differs', ...(hint === undefined ? {} : { hint }) },
});

describe('killMatrix', () => {
  const matrix = killMatrix(
    'register-tools',
    ['a', 'b', 'c'],
    [
      {
        slug: 'named',
        expected: [/^route Read/],
        results: [fail('a', 'route Read to tools.view'), fail('b', 'route Read to tools.view'), pass('c')],
      },
      { slug: 'uncaught', expected: [/x/], results: [pass('a'), pass('b'), pass('c')] },
      {
        slug: 'wrong-hint',
        expected: [/^swapped/],
        results: [fail('a', 'your Tools word this error differently'), pass('b'), pass('c')],
      },
      { slug: 'two-messages', expected: [/^one/], results: [fail('a', 'one'), fail('b'), pass('c')] },
    ],
  );

  it('lists the cases each mistake fails, grouped into the messages the report gives them', () => {
    expect(matrix.mistakes[0]).toEqual({
      slug: 'named',
      failed: ['a', 'b'],
      messages: [{ hint: 'route Read to tools.view', cases: ['a', 'b'] }],
      caught: true,
      named: true,
    });
    expect(matrix.kills).toEqual({ a: ['named', 'wrong-hint', 'two-messages'], b: ['named', 'two-messages'], c: [] });
  });

  it('names the cases no mistake fails, the mistakes no case catches, and those the report does not name', () => {
    expect([matrix.unkilled, matrix.uncaught, matrix.unnamed]).toEqual([
      ['c'],
      ['uncaught'],
      ['wrong-hint', 'two-messages'],
    ]);
    expect(auditPassed(matrix)).toBe(false);
  });

  it('passes when every mistake is caught and named, whatever cases no mistake fails', () => {
    const only = killMatrix('s', ['a', 'c'], [{ slug: 'n', expected: [/r/], results: [fail('a', 'r'), pass('c')] }]);
    expect([only.unkilled, auditPassed(only)]).toEqual([['c'], true]);
  });
});
