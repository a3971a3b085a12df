// Ctrl-C during a run on a terminal: the live count's line is erased first, so the message about the stop starts a
// line of its own rather than trailing `grading… 3 done`.
import { PassThrough } from 'node:stream';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { ERASE_LINE } from '../../src/grade/report/pretty.ts';
import { makeCourse, useScratch } from '../grade/course-fixture.ts';

void execa; // a real program process runs here: the e2e lane (test/support/lanes.ts)
const scratch = useScratch((f) => f.startsWith('theinference-'));

describe('Ctrl-C on a terminal', () => {
  it('erases the live count before the interrupted message', async () => {
    // Read cases pass; a Glob case never answers, so the run is still going when the signal comes.
    const course = await makeCourse(scratch, 'hangs');
    const stdout = Object.assign(new PassThrough(), { isTTY: true });
    const stderr = new PassThrough();
    const out: string[] = [];
    const err: string[] = [];
    const controller = new AbortController();
    stdout.on('data', (c: Buffer) => {
      out.push(c.toString());
      if (c.toString().includes('1 done')) controller.abort();
    });
    stderr.on('data', (c: Buffer) => err.push(c.toString()));
    const args = ['test', '--stage', 'register-tools', '--case', 'read-*', '--case', 'glob-*', '--jobs', '1'];
    const code = await runCli({
      argv: [...args, '--timeout', '600000'],
      cwd: course,
      env: { ...process.env, NO_COLOR: '1', TERM: 'xterm' },
      stdin: new PassThrough(),
      stdout,
      stderr,
      signal: controller.signal,
    });
    expect(code).toBe(130);
    expect(out.join('')).toContain('grading… 1 done');
    expect(out.at(-1)).toBe(ERASE_LINE);
    expect(err.join('')).toContain('interrupted: every program process was stopped');
  }, 120_000);
});
