// A hidden case's expected result, judged by the real judge and rendered by every reporter, the terminal's
// included: nowhere. The same case visible shows it, so the test fails when withholding does.
import { describe, expect, it } from 'vitest';
import type { Visibility } from '../../../src/course/case-weight.ts';
import type { Case } from '../../../src/course/types.ts';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import { judgeCase } from '../../../src/grade/judge/judge-case.ts';
import { WITHHELD, withholdExpected } from '../../../src/grade/judge/withhold-expected.ts';
import { REPORTER_NAMES, renderReport } from '../../../src/grade/report/index.ts';
import type { CaseOutcome } from '../../../src/grade/run/run-batches.ts';
import type { RunReport } from '../../../src/grade/types.ts';

// What the snapshot expects: text no student program would print.
const SECRET = 'expected-only 7f3a9c';
const calls = [
  { tool: 'Read', input: { path: 'a.txt' } },
  { tool: 'Bash', input: { command: 'echo hi' } },
];
const snapshot = { results: [{ content: `1: ${SECRET}` }, { content: 'hi\n', exit_code: 0, is_error: false }] };

function verdict(visibility: Visibility | undefined, outcome: CaseOutcome) {
  const c: Case<DispatchCaseData> = {
    stage: 'register-tools',
    name: 'read-hidden',
    file: '/cases/register-tools/read-hidden.json',
    data: {
      description: 'Read returns the numbered lines.',
      calls,
      ...(visibility === undefined ? {} : { visibility }),
    },
  };
  return judgeCase(c, snapshot, { name: c.name, outcome, output: '', durationMs: 3, afterProbe: false });
}

// Every way a verdict reaches a person or a file.
function everything(result: ReturnType<typeof verdict>): string {
  const report: RunReport = {
    stage: 'register-tools',
    dir: '/course',
    cases: [result],
    passed: 0,
    failed: 1,
    durationMs: 9,
  };
  return [...REPORTER_NAMES.map((name) => renderReport(name, report, { color: false })), JSON.stringify(result)].join(
    '\n',
  );
}

const wrongRead: CaseOutcome = {
  kind: 'results',
  results: [{ content: 'unknown tool: Read', is_error: true }, snapshot.results[1]],
};
const tooFew: CaseOutcome = { kind: 'results', results: [{ content: 'x' }] };

describe('a hidden case', () => {
  it.each([
    ['a wrong answer', wrongRead],
    ['a wrong number of results', tooFew],
  ])('never shows its expected result: %s, in every reporter', (_, outcome) => {
    expect(everything(verdict(undefined, outcome))).toContain(SECRET);
    for (const visibility of ['hidden', 'after_due_date', 'after_published'] as const) {
      const result = verdict(visibility, outcome);
      expect(result.status).toBe('fail');
      expect(result.failure).not.toHaveProperty('expected');
      expect(everything(result)).not.toContain(SECRET);
    }
  });

  it('still shows the verdict, the call, what the program returned and the hint', () => {
    const result = verdict('hidden', wrongRead);
    expect(result.failure).toMatchObject({
      kind: 'mismatch',
      message: `call 1 of 2 (Read) differs: ${WITHHELD}; received {"content":"unknown tool: Read","is_error":true}`,
      callIndex: 0,
      call: calls[0],
      received: { content: 'unknown tool: Read', is_error: true },
      hint: 'the alias `Read` is not wired: route it to tools.view',
    });
    expect(result.visibility).toBe('hidden');
  });

  it("words a loop case's difference by its request, or the conversation it returned", () => {
    const loop = {
      kind: 'mismatch' as const,
      message: 'm',
      steps: 'requests' as const,
      expected: SECRET,
      received: 'r',
    };
    expect(withholdExpected({ ...loop, callIndex: 1 }, 3).message).toBe(
      `request 2 of 3 differs: ${WITHHELD}; received "r"`,
    );
    expect(withholdExpected(loop, 3).message).toBe(
      `the conversation runLoop returned differs: ${WITHHELD}; received "r"`,
    );
  });

  it('leaves a failure that holds no expected result as it is', () => {
    const crash = { kind: 'crash' as const, message: 'the program exited with code 1' };
    expect(withholdExpected(crash, 2)).toBe(crash);
  });

  it('passes as any case does', () => {
    expect(verdict('hidden', { kind: 'results', results: snapshot.results }).status).toBe('pass');
  });
});
