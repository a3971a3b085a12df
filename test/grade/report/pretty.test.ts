// The terminal reporter: progress lines, failures in full, and a summary whose last lines a script can read.
import { describe, expect, it } from 'vitest';
import { renderLiveCount, renderPretty } from '../../../src/grade/report/pretty.ts';
import { renderFailure } from '../../../src/grade/report/render-failure.ts';
import type { CaseResult, RunReport } from '../../../src/grade/types.ts';

const pass = (name: string): CaseResult => ({
  name,
  description: `${name} works`,
  status: 'pass',
  durationMs: 7,
  output: '',
});
const crash: CaseResult = {
  name: 'bash-echo',
  description: 'Bash runs the command',
  status: 'fail',
  durationMs: 30,
  failure: { kind: 'crash', message: 'the program exited with code 3 before printing results for this case' },
  output: 'boom\n',
};
const report = (cases: CaseResult[], extra: Partial<RunReport> = {}): RunReport => ({
  stage: 'register-tools',
  dir: '/course',
  cases,
  passed: cases.filter((c) => c.status === 'pass').length,
  failed: cases.filter((c) => c.status === 'fail').length,
  durationMs: 1234,
  ...extra,
});

describe('renderLiveCount', () => {
  it.each([
    [{ done: 3, failed: 0 }, '\r\u001b[2Kgrading… 3 done'],
    [{ done: 7, failed: 2 }, '\r\u001b[2Kgrading… 7 done, 2 failed'],
  ])('redraws %o in place', (count, text) => {
    expect(renderLiveCount(count, { color: false })).toBe(text);
  });
});

describe('renderPretty', () => {
  it('summarises a passing run with counts, time and the plain count line last', () => {
    expect(renderPretty(report([pass('a'), pass('b')]), { color: false })).toBe(
      ['', ' Stage  register-tools', ' Cases  2 passed (2)', ' Time   1.23 s', '', '2 passed, 0 failed', ''].join('\n'),
    );
  });

  it('gives the points of a course that weighs its cases', () => {
    const text = renderPretty(report([{ ...pass('a'), points: 3 }, { ...crash, points: 0.5 }, pass('b')]), {
      color: false,
    });
    expect(text).toContain('\n Cases  1 failed | 2 passed (3)\n Points 4 of 4.5\n Time   1.23 s\n');
  });

  it('shows each failure in full, then the summary and the command that re-runs the failures', () => {
    const text = renderPretty(report([pass('a'), crash]), {
      color: false,
      rerunCommand: 'npx theinference test --stage register-tools --case bash-echo',
    });
    const lines = text.split('\n');
    expect(text).toContain(renderFailure(crash, { color: false }));
    expect(lines.slice(-8)).toEqual([
      ' Cases  1 failed | 1 passed (2)',
      ' Time   1.23 s',
      '',
      '1 passed, 1 failed',
      '',
      'Re-run just the failures:',
      'npx theinference test --stage register-tools --case bash-echo',
      '',
    ]);
  });

  it('says how many cases --bail left unrun, and shows warnings', () => {
    const text = renderPretty(report([crash], { skipped: 5, warnings: ['your cases affect each other'] }), {
      color: false,
    });
    expect(text).toContain(' Cases  1 failed | 0 passed | 5 not run (--bail) (6)');
    expect(text).toContain('warning: your cases affect each other');
  });

  it("says the variants' seed, and labels a variant's expected result as the reference's", () => {
    const failure = {
      kind: 'mismatch' as const,
      message: 'variant (seed 7): call 1 of 1 (Read) differs',
      variant: { seed: 7 },
    };
    const failed: CaseResult = {
      ...crash,
      failure: { ...failure, expected: { content: '1: Q' }, received: { content: '1: A' } },
    };
    const text = renderPretty(report([failed], { variants: { seed: 7, judged: 1, none: [] } }), { color: false });
    expect(text).toContain(' Also   variants: seed 7, 1 case also checked on renamed files (--seed 7 repeats them)');
    expect(text).toContain('- expected (the reference, on the variant)');
  });

  it('keeps the count line plain even in colour', () => {
    const lines = renderPretty(report([pass('a'), crash]), { color: true }).split('\n');
    expect(lines).toContain('1 passed, 1 failed');
  });
});

describe('renderPretty: one message per problem', () => {
  const hint = 'the alias `Read` is not wired: route it to tools.view';
  const unwired = (name: string): CaseResult => ({
    name,
    description: `${name} reads`,
    status: 'fail',
    durationMs: 3,
    failure: { kind: 'mismatch', message: `call 1 of 1 (Read) differs in ${name}`, hint },
    output: '',
  });
  const loading = (name: string): CaseResult => ({
    name,
    description: `${name} does things`,
    status: 'fail',
    durationMs: 0,
    failure: {
      kind: 'crash',
      message: 'the program exited with code 1 before running any case (it fails while loading: see its output)',
      beforeAnyCase: true,
      hint: '/c/src/execute.ts:8:36 does not compile: fix it and save',
    },
    output:
      'Error: Transform failed\n/c/src/execute.ts:8:36: ERROR: Expected ")"\n    at x (/c/node_modules/esbuild/lib/main.js:1:1)\n    at y (node:events:1:1)\n',
  });

  it('shows the first failure of a cause in full and names the others once', () => {
    const text = renderPretty(report([unwired('a'), pass('p'), unwired('b'), crash, unwired('c')]), { color: false });
    expect(text).toContain(
      `${renderFailure(unwired('a'), { color: false })}\n\n  2 more cases fail the same way:\n    b, c\n\n${renderFailure(crash, { color: false })}`,
    );
    expect(text.match(/hint: /g)).toHaveLength(1);
    expect(text).toContain('─── 4 failed ');
  });

  it('cuts a long list of names after about four lines, saying how many more', () => {
    const names = Array.from({ length: 40 }, (_, i) => `some-fairly-long-case-name-${String(i).padStart(2, '0')}`);
    const text = renderPretty(report(names.map(unwired)), { color: false });
    const list = text.slice(text.indexOf('39 more cases fail the same way:\n')).split('\n\n')[0]!.split('\n').slice(1);
    expect(list.length).toBeLessThanOrEqual(5);
    expect(list.every((l) => l.startsWith('    ') && l.length <= 106)).toBe(true);
    expect(list.at(-1)).toMatch(/, and \d+ more$/);
    expect(list.join(' ')).toContain('some-fairly-long-case-name-01, some-fairly-long-case-name-02');
  });

  it('gives a program that did not start one verdict: its error once, without foreign frames, then the hint', () => {
    const text = renderPretty(report([loading('a'), loading('b'), loading('c')]), { color: false });
    expect(text).toContain(
      [
        '✗ your program did not start — none of the 3 cases ran',
        '  the program exited with code 1 before running any case (it fails while loading: see its output)',
        '',
        "  your program's output:",
        '  [your_program] Error: Transform failed',
        '  [your_program] /c/src/execute.ts:8:36: ERROR: Expected ")"',
        '  (2 lines of stack inside Node and node_modules left out)',
        '',
        '  hint: /c/src/execute.ts:8:36 does not compile: fix it and save',
      ].join('\n'),
    );
    expect(text).not.toMatch(/^✗ [abc]\b|fail the same way/m);
  });

  it('says how many of the cases did not run when others did', () => {
    const text = renderPretty(report([loading('a'), pass('p'), loading('b')]), { color: false });
    expect(text).toContain('✗ your program did not start — 2 of the 3 cases did not run');
    expect(text).toContain(' Cases  2 failed (not run: your program did not start) | 1 passed (3)');
    expect(text.split('\n')).toContain('1 passed, 2 failed');
  });

  it('counts the cases of a program that did not start as failed in the summary and in the last line alike', () => {
    const text = renderPretty(report([loading('a'), loading('b'), loading('c')]), { color: false });
    expect(text).toContain(' Cases  3 failed (not run: your program did not start) | 0 passed (3)');
    expect(text.split('\n')).toContain('0 passed, 3 failed');
  });
});
