// The terminal reporter: progress lines, failures in full, and a summary whose last lines a script can read.
import { describe, expect, it } from 'vitest';
import { renderProgressLine, renderPretty } from '../../../src/grade/report/pretty.ts';
import { renderFailure } from '../../../src/grade/report/render-failure.ts';
import type { CaseResult, RunReport } from '../../../src/grade/types.ts';

const pass = (name: string): CaseResult => ({ name, description: `${name} works`, status: 'pass', durationMs: 7, output: '' });
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

describe('renderProgressLine', () => {
  it.each([
    [pass('read-a'), ' ✓ read-a 7 ms'],
    [crash, ' ✗ bash-echo — the program exited with code 3 before printing results for this case'],
  ])('%#', (result, line) => {
    expect(renderProgressLine(result, { color: false })).toBe(line);
  });
});

describe('renderPretty', () => {
  it('summarises a passing run with counts, time and the plain count line last', () => {
    expect(renderPretty(report([pass('a'), pass('b')]), { color: false })).toBe(
      ['', ' Stage  register-tools', ' Cases  2 passed (2)', ' Time   1.23 s', '', '2 passed, 0 failed', ''].join('\n'),
    );
  });

  it('shows each failure in full, then the summary and the command that re-runs the failures', () => {
    const text = renderPretty(report([pass('a'), crash]), { color: false, rerunCommand: 'npx theinference test --stage register-tools --case bash-echo' });
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
    const text = renderPretty(report([crash], { skipped: 5, warnings: ['your cases affect each other'] }), { color: false });
    expect(text).toContain(' Cases  1 failed | 0 passed | 5 not run (--bail) (6)');
    expect(text).toContain('warning: your cases affect each other');
  });

  it('keeps the count line plain even in colour', () => {
    const lines = renderPretty(report([pass('a'), crash]), { color: true }).split('\n');
    expect(lines).toContain('1 passed, 1 failed');
  });
});
