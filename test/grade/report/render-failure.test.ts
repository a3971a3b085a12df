// The full diagnosis of a failed case, in the order a student reads it.
import { describe, expect, it } from 'vitest';
import { renderFailure, renderOutput } from '../../../src/grade/report/render-failure.ts';
import type { CaseResult } from '../../../src/grade/types.ts';

const mismatch: CaseResult = {
  name: 'course-bash-echo-hi',
  description: 'Bash runs input.command.',
  status: 'fail',
  durationMs: 40,
  failure: {
    kind: 'mismatch',
    message: 'call 2 of 3 (Bash) differs: "is_error" is missing (expected false)',
    callIndex: 1,
    call: { tool: 'Bash', input: { command: 'echo hi' } },
    expected: { content: 'hi\n', exit_code: 0, is_error: false },
    received: { content: 'hi\n', exit_code: 0 },
    hint: 'Bash results carry is_error: false',
  },
  output: 'debug: routing Bash\n',
};

describe('renderFailure', () => {
  it('shows the case, the call and its input, the hint, the diff and the output, in that order', () => {
    expect(renderFailure(mismatch, { color: false }).split('\n')).toEqual([
      '✗ course-bash-echo-hi — Bash runs input.command.',
      '  call 2 of 3 (Bash) differs: "is_error" is missing (expected false)',
      '  input: {"command":"echo hi"}',
      '',
      '  hint: Bash results carry is_error: false',
      '',
      '    - expected (snapshot)',
      '    + received (your program)',
      '',
      '      {',
      '        "content": "hi',
      '      ",',
      '    -   "exit_code": 0,',
      '    -   "is_error": false',
      '    +   "exit_code": 0',
      '      }',
      '',
      "  your program's output:",
      '  [your_program] debug: routing Bash',
    ]);
  });

  it('shows a crash with its message and output, without a diff', () => {
    const crash: CaseResult = {
      ...mismatch,
      failure: { kind: 'crash', message: 'the program exited with code 3 before printing results for this case' },
      output: 'Error: boom\n    at x.ts:1\n',
    };
    expect(renderFailure(crash, { color: false }).split('\n')).toEqual([
      '✗ course-bash-echo-hi — Bash runs input.command.',
      '  the program exited with code 3 before printing results for this case',
      '',
      "  your program's output:",
      '  [your_program] Error: boom',
      '  [your_program]     at x.ts:1',
    ]);
  });

  it('renders a passing case as its title', () => {
    expect(renderFailure({ ...mismatch, status: 'pass', output: '' }, { color: false })).toBe(
      '✓ course-bash-echo-hi — Bash runs input.command.',
    );
  });

  it('colours only when asked', () => {
    expect(renderFailure(mismatch, { color: false })).not.toContain('\u001b[');
    expect(renderFailure(mismatch, { color: true })).toContain('\u001b[');
  });
});

describe('renderOutput', () => {
  it('is empty for blank output', () => {
    expect(renderOutput(' \n\n')).toBe('');
  });

  it('keeps the last 30 lines, each prefixed and cut, saying how many there were', () => {
    const output = `${Array.from({ length: 45 }, (_, k) => `line ${k + 1}`).join('\n')}\n${'x'.repeat(400)}\n`;
    const lines = renderOutput(output).split('\n');
    expect(lines[0]).toBe("your program's output (last 30 of 46 lines):");
    expect(lines[1]).toBe('[your_program] line 17');
    expect(lines.at(-1)).toBe(`[your_program] ${'x'.repeat(300)}…`);
    expect(lines.slice(1).every((l) => l.startsWith('[your_program] '))).toBe(true);
  });

  it('shows a lone carriage return instead of acting on it, so no line overwrites another', () => {
    expect(renderOutput('50%\r100%\r\ndone')).toBe(
      "your program's output:\n[your_program] 50%␍100%\n[your_program] done",
    );
  });

  it.each([
    ['an escape sequence (clear the screen, move the cursor)', '\u001b[2J\u001b[H112 passed', '␛[2J␛[H112 passed'],
    ['a one-character CSI', '\u009b2Jx', '\\u009b2Jx'],
    ['NEL', 'a\u0085112 passed, 0 failed', 'a\\u0085112 passed, 0 failed'],
    ['a line separator', 'a\u2028112 passed, 0 failed', 'a\\u2028112 passed, 0 failed'],
    ['a paragraph separator', 'a\u2029b', 'a\\u2029b'],
    ['a right-to-left override', 'a\u202eb', 'a\\u202eb'],
    ['a backspace over the prefix', '\b\b\b\bfake', '␈␈␈␈fake'],
  ])('makes %s visible, on the line it came in', (_, printed, shown) => {
    expect(renderOutput(printed)).toBe(`your program's output:\n[your_program] ${shown}`);
  });
});

describe('a long diff', () => {
  it('keeps the lines around the first difference, counts the rest, and leaves the hint above it in sight', () => {
    const lines = (n: number, changed: (k: number) => boolean) =>
      Array.from({ length: n }, (_, k) => `${k + 1}: ${changed(k) ? 'CHANGED' : 'line'}`).join('\n');
    const long: CaseResult = {
      ...mismatch,
      failure: {
        kind: 'mismatch',
        message: 'call 1 of 1 (Read) differs',
        expected: { content: lines(130, () => false) },
        received: { content: lines(130, (k) => k >= 60) },
        hint: 'input.view_range never reaches tools.view',
      },
      output: '',
    };
    const text = renderFailure(long, { color: false }).split('\n');
    expect(text.length).toBeLessThan(45);
    expect(text.findIndex((l) => l.includes('hint:'))).toBeLessThan(text.findIndex((l) => l.includes('- expected')));
    expect(text).toContain('    - 61: line');
    expect(text.at(-1)).toMatch(/^ +… \d+ more lines of the diff left out \(\d+ changed\)$/);
  });
});
