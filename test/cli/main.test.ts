// The CLI in process, with injected streams: flags to options, outcomes and misuse to exit codes, reports to
// stdout or to a file.
import { mkdir, readdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../support/cli-in-process.ts';
import { KNOWN_STAGES, STAGE_LINES, unknownStage } from '../support/stage-lists.ts';
import { STAGES } from '../../src/course/stages.ts';
import { rerunFailures } from '../../src/cli/commands/test.ts';
import { shellQuote } from '../../src/shell-quote.ts';
import type { RunReport } from '../../src/grade/types.ts';
import { failedRecordPath } from '../../src/grade/failed-record.ts';
import { isTsxCache, makeCourse, REPO, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch((f) => f.startsWith('theinference-') && !isTsxCache(f));

const cli = (argv: string[], cwd = scratch.root, env: NodeJS.ProcessEnv = {}) => cliInProcess(argv, cwd, env);

describe('runCli misuse: exit 2 with a message that says how to fix it', () => {
  // `test` without it grades what the course's `npm test` grades (student-words.test.ts).
  it.each([['audit'], ['snapshot']])('%s without --stage names the stages there are', async (command) => {
    const { code, stderr } = await cli([command]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `error: required option '--stage <slug>' not specified\n(add --help for usage)\nThe stages: ${KNOWN_STAGES}, e.g. --stage ${STAGES[0]!.slug}. \`npx theinference stages\` lists them with their cases.\n`,
    );
  });

  it.each([
    [['test', '--stage', 'nope'], unknownStage('nope')],
    [
      ['test', '--stage', 'register-tools', '--jobs', '0'],
      "error: --jobs '0' is not a whole number above 0: give program processes at once, e.g. --jobs 2.\n",
    ],
    [
      ['test', '--stage', 'register-tools', '--timeout', '2s'],
      "error: --timeout '2s' is not a whole number above 0: give milliseconds per case, e.g. --timeout 20000.\n",
    ],
    [
      ['test', '--stage', 'register-tools', '--shard', '3/2'],
      "error: --shard '3/2' is not a shard: write i/n with 1 <= i <= n, e.g. --shard 1/3 on the first of three machines.\n",
    ],
    [
      ['test', '--stage', 'register-tools', '--watch', '--output', 'x.xml'],
      'error: --watch shows the terminal report: drop --reporter and --output, or drop --watch.\n',
    ],
    [
      ['test', '--stage', 'register-tools', '--watch', '--failed'],
      'error: --watch re-runs failures with its own key: drop --failed, and press f once a run has finished.\n',
    ],
    [
      ['test', '--stage', 'register-tools', '--reporter', 'xml'],
      "error: option '--reporter <name>' argument 'xml' is invalid. Allowed choices are pretty, json, junit, tap, github, gradescope, html.\n(add --help for usage)\n",
    ],
    [
      ['test', '--stage', 'register-tools', '--frobnicate'],
      "error: unknown option '--frobnicate'\n(add --help for usage)\n",
    ],
    [['grade'], "error: unknown command 'grade'\n(add --help for usage)\n"],
  ])('%j', async (argv, message) => {
    const { code, stderr } = await cli(argv);
    expect([code, stderr]).toEqual([2, message]);
  });

  it('refuses a course directory that does not exist', async () => {
    const { code, stderr } = await cli(['test', '--stage', 'register-tools', '--dir', 'nowhere']);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: course directory not found: ${join(scratch.root, 'nowhere')}. Run the grader from your course directory, or pass --dir <your course directory>.\n`,
    );
  });

  it('prints the help and exits 2 without a command', async () => {
    const { code, stderr } = await cli([]);
    expect(code).toBe(2);
    expect(stderr).toContain('Usage: theinference [options] [command]');
  });

  it('prints the help on --help and exits 0', async () => {
    const { code, stdout } = await cli(['test', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('--shard <i/n>');
  });

  it.each([['test'], ['snapshot']])('%s --help shows the default of --case in words, not as []', async (command) => {
    const { stdout } = await cli([command, '--help']);
    expect(stdout).toMatch(/repeat for several\s+\(default: every case\)/);
    expect(stdout).not.toContain('[]');
  });

  it.each([['--version'], ['-v']])('prints the package version on %s and exits 0', async (flag) => {
    const { code, stdout } = await cli([flag]);
    const { version } = JSON.parse(await readFile(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect([code, stdout]).toEqual([0, `${version}\n`]);
  });
});

describe('runCli stages', () => {
  it('lists each stage in course order with its title and case count', async () => {
    const { code, stdout } = await cli(['stages']);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      new RegExp(`^${STAGE_LINES.join('\\n')}\\n\\nGrade one with: npx theinference test --stage <stage>\\n$`),
    );
  });
});

describe('runCli test', () => {
  it('exits 0 when every case passes, and a green run is the summary alone: no line per case', async () => {
    const course = await makeCourse(scratch);
    const { code, stdout } = await cli(['test', '--stage', 'register-tools', '--case', 'course-*'], course);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/course-/);
    expect(stdout.split('\n')).toContain('3 passed, 0 failed');
  });

  it('grades the course directory above when run from a subdirectory of it', async () => {
    const course = await makeCourse(scratch);
    const { code, stdout } = await cli(
      ['test', '--stage', 'register-tools', '--case', 'course-*'],
      join(course, 'src', 'tools'),
    );
    expect(code).toBe(0);
    expect(stdout.split('\n')).toContain('3 passed, 0 failed');
  });

  it('exits 1 when a case fails, showing the diagnosis and the command that re-runs the failures', async () => {
    const course = await makeCourse(scratch, 'exits-non-zero');
    const { code, stdout } = await cli([
      'test',
      '--stage',
      'register-tools',
      '--dir',
      course,
      '--case',
      'course-bash-*',
      '--case',
      'course-read-*',
    ]);
    expect(code).toBe(1);
    expect(stdout).toContain('✗ course-bash-echo-hi — Bash runs input.command');
    expect(stdout).toContain('[your_program] giving up on Bash');
    expect(stdout.split('\n').slice(-3)).toEqual([
      'Re-run just the failures:',
      `npx theinference test --stage register-tools --dir ${course} --case course-bash-echo-hi`,
      '',
    ]);
  });

  it('writes the report to --output and only the counts to stdout', async () => {
    const course = await makeCourse(scratch);
    const { code, stdout } = await cli(
      [
        'test',
        '--stage',
        'register-tools',
        '--case',
        'course-*',
        '--shard',
        '1/2',
        '--reporter',
        'junit',
        '--output',
        'report.xml',
      ],
      course,
    );
    expect(code).toBe(0);
    expect(stdout).toBe('2 passed, 0 failed\nWrote the junit report to report.xml\n');
    const xml = await readFile(join(course, 'report.xml'), 'utf8');
    expect(xml.match(/<testcase /g)?.length).toBe(2);
    expect((await readdir(course)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('runCli test --failed', () => {
  // A course whose node_modules is its own (the tools' fast-glob linked in), so that its record of failures is too.
  const course = (scenario?: string): Promise<string> => makeCourse(scratch, scenario);

  it("re-runs only the last run's failures, from the record the run left in the course directory", async () => {
    const dir = await course('exits-non-zero');
    const first = await cli(['test', '--stage', 'register-tools', '--case', 'course-*'], dir);
    expect([first.code, first.stdout.split('\n')]).toEqual([1, expect.arrayContaining(['2 passed, 1 failed'])]);
    const record = JSON.parse(await readFile(failedRecordPath(dir, 'register-tools'), 'utf8')) as unknown;
    expect(record).toEqual({ dir: await realpath(dir), failed: ['course-bash-echo-hi'] });
    const again = await cli(['test', '--stage', 'register-tools', '--failed'], join(dir, 'src'));
    expect(again.code).toBe(1);
    expect(again.stdout).toContain('✗ course-bash-echo-hi — ');
    expect(again.stdout.split('\n')).toContain('0 passed, 1 failed');
  });

  it('says there is nothing to re-run when the last run had no failures, and exits 0', async () => {
    const dir = await course();
    expect((await cli(['test', '--stage', 'register-tools', '--case', 'course-read-*'], dir)).code).toBe(0);
    const { code, stdout } = await cli(['test', '--stage', 'register-tools', '--failed'], dir);
    expect([code, stdout]).toEqual([
      0,
      `The last run of register-tools in ${dir} had no failures: nothing to re-run (drop --failed to grade every case).\n`,
    ]);
  });

  it('leaves out recorded names the stage no longer has', async () => {
    const dir = await course();
    await mkdir(dirname(failedRecordPath(dir, 'register-tools')), { recursive: true });
    await writeFile(
      failedRecordPath(dir, 'register-tools'),
      `${JSON.stringify({ dir: await realpath(dir), failed: ['a-case-since-renamed'] })}\n`,
    );
    const { code, stdout } = await cli(['test', '--stage', 'register-tools', '--failed'], dir);
    expect([code, stdout]).toEqual([0, expect.stringMatching(/had no failures: nothing to re-run/)]);
  });

  it('exits 2 when no run left a record, saying what to run first', async () => {
    const dir = await course();
    const { code, stderr } = await cli(['test', '--stage', 'register-tools', '--failed'], dir);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `error: --failed re-runs the failures of the last run of register-tools in ${dir}, but there is no record of one (${failedRecordPath(dir, 'register-tools')}): run \`npx theinference test --stage register-tools\` first.\n`,
    );
  });

  it('exits 2 beside --case: it picks the cases itself', async () => {
    const { code, stderr } = await cli(
      ['test', '--stage', 'register-tools', '--failed', '--case', 'x'],
      await course(),
    );
    expect([code, stderr]).toEqual([
      2,
      "error: --failed picks the cases itself (the last run's failures): drop --case, or drop --failed.\n",
    ]);
  });
});

describe('runCli test --isolation and --output', () => {
  // A PATH with bash (the cases' Bash calls need it) and no bwrap.
  const withoutBwrap = async (): Promise<NodeJS.ProcessEnv> => {
    const bin = join(scratch.root, 'bin-without-bwrap');
    await mkdir(bin, { recursive: true });
    await symlink('/bin/bash', join(bin, 'bash')).catch(() => {});
    return { PATH: bin };
  };

  it('refuses a mode it does not know', async () => {
    const { code, stderr } = await cli(['test', '--stage', 'register-tools', '--isolation', 'strict']);
    expect([code, stderr]).toEqual([
      2,
      "error: option '--isolation <mode>' argument 'strict' is invalid. Allowed choices are auto, required, off.\n(add --help for usage)\n",
    ]);
  });

  it.each([
    [['--isolation', 'required'], {}, '--isolation required'],
    [
      [],
      { CI: 'true', THEINFERENCE_ISOLATION: undefined },
      'the sandbox is required \\(CI is set: "true", which makes --isolation required the default\\)',
    ],
  ])(
    'fails closed without bubblewrap when isolation is required (%j, %j): exit 2 with the install line, no case run',
    async (flags, env, why) => {
      const course = await makeCourse(scratch);
      const { code, stdout, stderr } = await cli(
        ['test', '--stage', 'register-tools', '--dir', course, ...flags],
        scratch.root,
        { ...(await withoutBwrap()), ...env },
      );
      expect([code, stdout]).toEqual([2, '']);
      expect(stderr).toMatch(
        new RegExp(
          `^error: ${why}, but bubblewrap \\(bwrap\\) is not installed\\. To sandbox the program under test: sudo apt-get install bubblewrap`,
        ),
      );
    },
  );

  it('grades without the sandbox under auto when bubblewrap is missing, warning once on stderr', async () => {
    const course = await makeCourse(scratch);
    const argv = ['test', '--stage', 'register-tools', '--dir', course, '--case', 'course-*', '--isolation', 'auto'];
    const { code, stdout, stderr } = await cli(argv, scratch.root, await withoutBwrap());
    expect(code).toBe(0);
    expect(stdout.split('\n')).toContain('3 passed, 0 failed');
    expect(
      stderr.match(
        /^warning: the program under test runs without a sandbox: bubblewrap \(bwrap\) is not installed\. Unprotected: /gm,
      )?.length,
    ).toBe(1);
    expect(stderr.split('\n').filter((l) => l !== '').length).toBe(1);
  });

  it.each([
    ['', /^error: --output "" is empty/],
    ['courses', /^error: --output "courses" is a directory/],
    ['missing/results.json', /^error: --output "missing\/results\.json" is in .*missing, which does not exist/],
  ])('refuses --output %j before any case runs (exit 2)', async (output, message) => {
    const course = await makeCourse(scratch);
    const { code, stdout, stderr } = await cli([
      'test',
      '--stage',
      'register-tools',
      '--dir',
      course,
      '--reporter',
      'json',
      '--output',
      output,
    ]);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toMatch(message);
  });
});

describe('rerunFailures', () => {
  const report = (names: string[]): RunReport => ({
    stage: 'register-tools',
    dir: '/c',
    cases: names.map((name) => ({ name, description: '', status: 'fail', durationMs: 1, output: '' })),
    passed: 0,
    failed: names.length,
    durationMs: 1,
  });

  it.each([
    [{}, 'npx theinference test --stage register-tools --case a --case b'],
    [{ dir: ['my course'] }, "npx theinference test --stage register-tools --dir 'my course' --case a --case b"],
    [
      { timeout: '20000', jobs: '4', shard: '1/2' },
      'npx theinference test --stage register-tools --timeout 20000 --case a --case b',
    ],
  ])('%j', (flags, command) => {
    expect(rerunFailures({ stage: 'register-tools', case: ['*'], ...flags }, report(['a', 'b']))).toBe(command);
  });

  it('names up to three failures, and re-runs more with --failed, so the command stays short', () => {
    const flags = { stage: 'register-tools', case: [], dir: ['c'] };
    expect(rerunFailures(flags, report(['a', 'b', 'c']))).toBe(
      'npx theinference test --stage register-tools --dir c --case a --case b --case c',
    );
    expect(rerunFailures(flags, report(['a', 'b', 'c', 'd']))).toBe(
      'npx theinference test --stage register-tools --dir c --failed',
    );
  });

  it('names them all when the run could not record them', () => {
    const flags = { stage: 'register-tools', case: [] };
    expect(rerunFailures(flags, report(['a', 'b', 'c', 'd']), false)).toBe(
      'npx theinference test --stage register-tools --case a --case b --case c --case d',
    );
  });
});

describe('shellQuote', () => {
  it.each([
    ['read-a', 'read-a'],
    ['/tmp/x_y.z', '/tmp/x_y.z'],
    ['a b', "'a b'"],
    ["it's", "'it'\\''s'"],
    ['*', "'*'"],
  ])('%s', (word, quoted) => {
    expect(shellQuote(word)).toBe(quoted);
  });
});
