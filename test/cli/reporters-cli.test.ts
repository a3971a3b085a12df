// The CLI's reporter flags in process, on a real course directory: several reporters in one run, each to its own
// output; the GitHub job summary; colour as FORCE_COLOR and NO_COLOR say; no live count on a dumb terminal; `help`
// exits 0; a misuse writes a Gradescope results.json that says why.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Parser } from 'tap-parser';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.ts';
import { cliInProcess } from '../support/cli-in-process.ts';
import { isTsxCache, makeCourse, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch((f) => f.startsWith('theinference-') && !isTsxCache(f));
const cli = (argv: string[], cwd = scratch.root, env: NodeJS.ProcessEnv = {}) => cliInProcess(argv, cwd, env);
const GRADE = ['test', '--stage', 'register-tools', '--case', 'course-*'];

describe('several reporters in one run', () => {
  it('writes each to its own file and one to stdout, as vitest does', async () => {
    const course = await makeCourse(scratch, 'exits-non-zero');
    const { code, stdout, stderr } = await cli(
      [...GRADE, '--reporter', 'junit:junit.xml', '--reporter', 'json:results.json', '--reporter', 'tap'],
      course,
    );
    expect(code).toBe(1);
    const parser = new Parser({ strict: true });
    let count = 0;
    parser.on('complete', (f: { count: number }) => (count = f.count));
    parser.end(stdout);
    expect(count).toBe(3);
    expect(stderr).toContain('Wrote the junit report to junit.xml\nWrote the json report to results.json\n');
    expect((await readFile(join(course, 'junit.xml'), 'utf8')).match(/<testcase /g)).toHaveLength(3);
    const json = JSON.parse(await readFile(join(course, 'results.json'), 'utf8'));
    expect([json.passed, json.failed]).toEqual([2, 1]);
  });

  it('gives --output to the one reporter without a file of its own', async () => {
    const course = await makeCourse(scratch);
    const { code, stdout } = await cli(
      [...GRADE, '--reporter', 'junit:junit.xml', '--reporter', 'json', '--output', 'results.json'],
      course,
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      '3 passed, 0 failed\nWrote the junit report to junit.xml\nWrote the json report to results.json\n',
    );
    expect(JSON.parse(await readFile(join(course, 'results.json'), 'utf8')).passed).toBe(3);
  });

  it.each([
    [['--reporter', 'junit', '--reporter', 'tap'], '--reporter junit and --reporter tap would all print to stdout'],
    [['--reporter', 'junit', '--reporter', 'tap', '--output', 'x'], 'but 2 reporters have no file of their own'],
    [['--reporter', 'junit:a.xml', '--output', 'x'], 'but every --reporter has a file of its own'],
    [['--reporter', 'junit:a.xml', '--reporter', 'junit:b.xml'], '--reporter junit is given twice'],
    [['--reporter', 'junit:r', '--reporter', 'json:r'], 'two reporters write to "r"'],
    [['--reporter', 'xml:a.xml'], "argument 'xml:a.xml' is invalid. Allowed choices are pretty, json, junit"],
  ])('refuses %j before anything runs, saying how to fix it', async (flags, message) => {
    const { code, stderr } = await cli([...GRADE, ...flags]);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});

describe('the GitHub job summary', () => {
  it('appends Markdown to $GITHUB_STEP_SUMMARY with the github reporter, the counts and each failure', async () => {
    const course = await makeCourse(scratch, 'exits-non-zero');
    const file = join(course, 'step-summary.md');
    await writeFile(file, 'an earlier step\n');
    const { code, stdout } = await cli([...GRADE, '--reporter', 'github'], course, { GITHUB_STEP_SUMMARY: file });
    expect(code).toBe(1);
    expect(stdout).toMatch(/^::error file=src\/execute\.ts,title=course-bash-echo-hi::/m);
    const summary = await readFile(file, 'utf8');
    expect(summary.startsWith('an earlier step\n## theinference: 2 passed, 1 failed\n')).toBe(true);
    expect(summary).toContain('| case | what went wrong | hint |');
    expect(summary).toMatch(/^\| course\\-bash\\-echo\\-hi \| /m);
  });
});

describe('the re-run command in CI', () => {
  it('never says --failed, whose record stays on the runner: more failures than it names re-grade the stage', async () => {
    const course = await makeCourse(scratch, 'does-not-compile');
    const file = join(course, 'step-summary.md');
    const env = { CI: 'true', THEINFERENCE_ISOLATION: 'auto', GITHUB_STEP_SUMMARY: file };
    const { code, stdout } = await cli(
      [...GRADE, '--case', 'echo-*', '--no-variants', '--reporter', 'github'],
      course,
      env,
    );
    expect(code).toBe(1);
    const summary = await readFile(file, 'utf8');
    for (const text of [summary, stdout]) {
      expect(text).not.toContain('--failed');
      expect(text).toContain('npx theinference test --stage register-tools\n');
    }
  });
});

describe('colour and the live count', () => {
  // A terminal: a stream that says it is a TTY.
  async function onTerminal(argv: string[], cwd: string, env: NodeJS.ProcessEnv) {
    const stdout = Object.assign(new PassThrough(), { isTTY: true });
    const out: string[] = [];
    stdout.on('data', (c: Buffer) => out.push(c.toString()));
    const code = await runCli({ argv, cwd, env, stdin: new PassThrough(), stdout, stderr: new PassThrough() });
    return { code, stdout: out.join('') };
  }
  const ESC = '\u001b[';
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR };

  it('colours a pipe when FORCE_COLOR says so, even with NO_COLOR set', async () => {
    const course = await makeCourse(scratch);
    const { stdout } = await cli(GRADE, course, { FORCE_COLOR: '1' });
    expect(stdout).toContain(ESC);
  });

  it('does not colour a terminal when FORCE_COLOR is 0, nor when NO_COLOR is set', async () => {
    const course = await makeCourse(scratch);
    for (const extra of [{ FORCE_COLOR: '0' }, { NO_COLOR: '1' }]) {
      const { stdout } = await onTerminal(GRADE, course, { ...env, ...extra });
      expect(stdout.replaceAll('\r\u001b[2K', '')).not.toContain(ESC);
    }
  });

  it('tells the first failure on a terminal as soon as it is judged, above the count, before the report', async () => {
    const course = await makeCourse(scratch, 'exits-non-zero');
    const { code, stdout } = await onTerminal(GRADE, course, { ...env, TERM: 'xterm' });
    expect(code).toBe(1);
    const early = stdout.indexOf('first failure, as it came');
    expect(early).toBeGreaterThanOrEqual(0);
    expect(stdout.indexOf('course-bash-echo-hi', early)).toBeGreaterThan(early);
    // The live count goes on after it, and the report comes last.
    expect(stdout.indexOf('grading…', early)).toBeGreaterThan(early);
    expect(stdout.lastIndexOf('2 passed, 1 failed')).toBeGreaterThan(stdout.lastIndexOf('grading…'));
    const piped = await cli(GRADE, course);
    expect(piped.stdout).not.toContain('first failure');
  });

  it('never redraws the live count on TERM=dumb, and does on a terminal that can', async () => {
    const course = await makeCourse(scratch);
    const dumb = await onTerminal(GRADE, course, { ...env, TERM: 'dumb' });
    expect(dumb.code).toBe(0);
    expect(dumb.stdout).not.toContain('\r');
    expect(dumb.stdout).not.toContain('grading…');
    const xterm = await onTerminal(GRADE, course, { ...env, TERM: 'xterm' });
    expect(xterm.stdout).toContain('\r\u001b[2K');
  });
});

describe('help', () => {
  it.each([[['help']], [['help', 'test']]])('%j prints the help and exits 0', async (argv) => {
    const { code, stdout } = await cli(argv);
    expect(code).toBe(0);
    expect(stdout).toContain('Usage: theinference');
  });
});

describe('a misuse with a Gradescope results.json asked for', () => {
  it('writes one failing test that says why, score 0, and exits 2', async () => {
    const { code, stderr } = await cli([
      'test',
      '--stage',
      'register-tools',
      '--dir',
      'no-such-course',
      '--reporter',
      'gradescope:results.json',
      '--reporter',
      'junit:junit.xml',
    ]);
    expect(code).toBe(2);
    expect(stderr).toContain('course directory not found');
    const results = JSON.parse(await readFile(join(scratch.root, 'results.json'), 'utf8'));
    expect(results.score).toBe(0);
    expect(results.tests).toHaveLength(1);
    expect(results.tests[0]).toMatchObject({ name: 'theinference', score: 0, status: 'failed' });
    expect(results.tests[0].output).toContain('course directory not found');
    // CI systems read the exit code: a misuse leaves them no report to mistake for a run.
    await expect(readFile(join(scratch.root, 'junit.xml'))).rejects.toThrow(/ENOENT/);
  });
});
