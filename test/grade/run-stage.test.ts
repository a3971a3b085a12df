// Grading a course directory in process, against the real register-tools cases: the reference passes, each
// hostile program gets its own clear verdict while the others still run, misuse is a HarnessError before
// anything is spawned, and no temp directory is left behind.
import { existsSync } from 'node:fs';
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { runStage } from '../../src/grade/run-stage.ts';
import type { RunOptions } from '../../src/grade/run-options.ts';
import { LEAK_CAUSE, leakHint } from '../../src/grade/judge/recheck-alone.ts';
import type { CaseResult } from '../../src/grade/types.ts';
import { makeCourse, useScratch, processRunning, REPO } from './course-fixture.ts';
import { writeAnswers } from '../support/lookup-table.ts';

const BASH = 'course-bash-echo-hi';
const GLOB = 'course-glob-everything';
const READ = 'course-read-seeded-file';
const scratch = useScratch();

const grade = (dir: string, options: Partial<RunOptions> = {}) =>
  runStage({ stage: 'register-tools', dir, cases: ['course-*'], jobs: 1, timeoutMs: 30_000, ...options });
const verdicts = (cases: CaseResult[]) => Object.fromEntries(cases.map((c) => [c.name, c.failure?.kind ?? c.status]));

describe('runStage', () => {
  it('decides the sandbox as the default mode, saying where `required` came from (CI), never "--isolation required"', async () => {
    const dir = await makeCourse(scratch);
    const error = await grade(dir, { env: { CI: 'true', PATH: '/nonexistent' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toMatch(/^the sandbox is required \(CI is set: "true", which makes/);
  });

  it('passes the reference, reporting every case once, as it streams and in the report', async () => {
    const dir = await makeCourse(scratch);
    const streamed: string[] = [];
    const report = await grade(dir, { jobs: 2, onCaseResult: (r) => streamed.push(r.name) });
    expect(verdicts(report.cases)).toEqual({ [BASH]: 'pass', [GLOB]: 'pass', [READ]: 'pass' });
    expect([report.passed, report.failed, report.stage, report.dir]).toEqual([3, 0, 'register-tools', dir]);
    expect(streamed.sort()).toEqual([BASH, GLOB, READ]);
  });

  it('runs the cases named runFirst before the others, and keeps the report in name order', async () => {
    const dir = await makeCourse(scratch);
    const asGiven: string[] = [];
    const asFirst: string[] = [];
    await grade(dir, { onCaseResult: (r) => asGiven.push(r.name) });
    const report = await grade(dir, { runFirst: [READ], onCaseResult: (r) => asFirst.push(r.name) });
    expect(asGiven).toEqual([BASH, GLOB, READ]);
    expect(asFirst).toEqual([READ, BASH, GLOB]);
    expect(report.cases.map((c) => c.name)).toEqual([BASH, GLOB, READ]);
  });

  it('tells a failure as soon as it is judged, before the re-run alone settles it, and settles it once', async () => {
    const dir = await makeCourse(scratch);
    await cp(join(REPO, 'test', 'fixtures', 'wrong-execute', 'missing-alias-read.ts'), join(dir, 'src', 'execute.ts'));
    const events: string[] = [];
    const report = await grade(dir, {
      onFailureSeen: (r) => events.push(`seen ${r.name}`),
      onCaseResult: (r) => events.push(`${r.status} ${r.name}`),
    });
    expect(verdicts(report.cases)).toEqual({ [BASH]: 'pass', [GLOB]: 'pass', [READ]: 'mismatch' });
    expect(events.filter((e) => e.endsWith(READ))).toEqual([`seen ${READ}`, `fail ${READ}`]);
  });

  it.each<[string, Record<string, string>, Partial<RunOptions>]>([
    ['does-not-compile', { [BASH]: 'crash', [GLOB]: 'crash', [READ]: 'crash' }, {}],
    ['throws-at-import', { [BASH]: 'crash', [GLOB]: 'crash', [READ]: 'crash' }, {}],
    ['exits-non-zero', { [BASH]: 'crash', [GLOB]: 'pass', [READ]: 'pass' }, {}],
    ['prints-nothing', { [BASH]: 'no-output', [GLOB]: 'no-output', [READ]: 'no-output' }, {}],
    ['prints-non-json', { [BASH]: 'pass', [GLOB]: 'pass', [READ]: 'pass' }, {}],
    ['json-without-results', { [BASH]: 'bad-output', [GLOB]: 'bad-output', [READ]: 'bad-output' }, {}],
    ['wrong-result-count', { [BASH]: 'result-count', [GLOB]: 'result-count', [READ]: 'result-count' }, {}],
    ['prints-a-gigabyte', { [BASH]: 'pass', [GLOB]: 'timeout', [READ]: 'pass' }, { timeoutMs: 2000 }],
    ['hangs', { [BASH]: 'pass', [GLOB]: 'timeout', [READ]: 'pass' }, { timeoutMs: 2000 }],
    ['vandal', { [BASH]: 'pass', [GLOB]: 'pass', [READ]: 'pass' }, {}],
  ])('gives %s its verdicts', async (scenario, expected, options) => {
    const dir = await makeCourse(scratch, scenario);
    // A scenario of a driver that misbehaves brings its own (program.ts): the grader's never does.
    const own = existsSync(join(REPO, 'test', 'fixtures', scenario, 'program.ts')) ? { driver: 'program.ts' } : {};
    const report = await grade(dir, { ...own, ...options });
    expect(verdicts(report.cases)).toEqual(expected);
    expect(await processRunning('sleep 987654', dir)).toBe(false);
  });

  it("notes a program.ts that is not the course's in one line, passing or failing, and grades as without it", async () => {
    const note =
      /^program\.ts is not the course's: the grader never runs it .* restore it: cp \S+program\.ts program\.ts$/;
    const dir = await makeCourse(scratch);
    await writeFile(join(dir, 'program.ts'), 'process.stdout.write(\'{"results":[]}\\n\');\n');
    const edited = await grade(dir);
    expect([edited.failed, edited.passed, edited.warnings]).toEqual([0, 3, [expect.stringMatching(note)]]);
    const failing = await grade(await makeCourse(scratch, 'exits-non-zero'));
    expect([failing.failed, failing.warnings]).toEqual([1, undefined]);
  });

  it("shows a program's own words for why it failed", async () => {
    const report = await grade(await makeCourse(scratch, 'throws-at-import'), { cases: [READ] });
    expect(report.cases[0]?.output).toContain('loading the dispatcher');
    expect(report.cases[0]?.output).toContain('Error: dispatcher table is not ready');
  });

  it('fails the cases that pass only alone, each with the leak hint, when the cases of a program affect each other', async () => {
    const report = await grade(await makeCourse(scratch, 'leaks-call-budget'));
    const failed = report.cases.filter((c) => c.status === 'fail');
    expect(failed.map((c) => c.failure?.hintCause)).toEqual(failed.map(() => LEAK_CAUSE));
    expect(failed.map((c) => c.failure?.hint)).toEqual(failed.map(() => leakHint('makeExecute')));
    expect(failed.length).toBeGreaterThan(0);
    expect(report.warnings ?? []).toEqual([]);
  });

  it("records each case's time in a batch into the timings it was given", async () => {
    const timings = new Map([[READ, 99_999]]);
    await grade(await makeCourse(scratch), { timings });
    expect([...timings.keys()].sort()).toEqual([BASH, GLOB, READ]);
    expect(timings.get(READ)).toBeLessThan(99_999);
  });

  it('records no time for a case run alone, since it would include the start of its process', async () => {
    const timings = new Map<string, number>();
    const report = await grade(await makeCourse(scratch), { cases: [READ], timings });
    expect([report.passed, timings.size]).toEqual([1, 0]);
  });

  it('stops at the first failure with bail, counting the cases not run', async () => {
    const report = await grade(await makeCourse(scratch, 'exits-non-zero'), { bail: true, cases: [BASH, READ] });
    expect(verdicts(report.cases)).toEqual({ [BASH]: 'crash' });
    expect(report.skipped).toBe(1);
  });

  it('rejects when its signal aborts, once every process is gone', async () => {
    // Bash leaves a background sleep and answers; Glob then hangs for good: abort as Bash's verdict arrives.
    const controller = new AbortController();
    const dir = await makeCourse(scratch, 'hangs');
    const run = grade(dir, {
      cases: [BASH, GLOB],
      timeoutMs: 600_000,
      signal: controller.signal,
      onCaseResult: () => controller.abort(),
    });
    await expect(run).rejects.toThrow('This operation was aborted');
    expect(await processRunning('sleep 987654', dir)).toBe(false);
  });
});

describe('runStage with variants', () => {
  const CASES = ['course-*', 'story-edit-then-view', 'bash-pwd-is-sandbox'];

  it('passes the reference on every variant, the reference run beside it, and says what the variants came to', async () => {
    const report = await grade(await makeCourse(scratch), { cases: CASES, variants: { seed: 77 } });
    expect([report.passed, report.failed]).toEqual([5, 0]);
    expect(report.variants).toEqual({
      seed: 77,
      judged: 3,
      none: [
        { name: 'bash-pwd-is-sandbox', why: 'nothing in it to rename' },
        { name: BASH, why: 'nothing in it to rename' },
      ],
    });
  });

  it('fails a lookup table of the stored results on every variant, and on nothing as written', async () => {
    const dir = await makeCourse(scratch, 'lookup-table');
    await writeAnswers(dir);
    expect((await grade(dir, { cases: CASES })).failed).toBe(0);
    const report = await grade(dir, { cases: CASES, variants: { seed: 77 } });
    expect(verdicts(report.cases)).toEqual({
      'bash-pwd-is-sandbox': 'pass',
      [BASH]: 'pass',
      [GLOB]: 'mismatch',
      [READ]: 'mismatch',
      'story-edit-then-view': 'mismatch',
    });
    for (const c of report.cases.filter((c) => c.status === 'fail')) {
      expect(c.failure).toMatchObject({
        variant: { seed: 77 },
        message: expect.stringMatching(/^variant \(seed 77\): call 1 of \d/),
      });
    }
  });

  it('judges each variant once, in one batch with its case, when several processes share the work', async () => {
    const streamed: string[] = [];
    const report = await grade(await makeCourse(scratch), {
      cases: CASES,
      jobs: 2,
      variants: { seed: 3 },
      onCaseResult: (r) => streamed.push(r.name),
    });
    expect(streamed.sort()).toEqual(report.cases.map((c) => c.name).sort());
    expect(report.cases.map((c) => c.name)).toEqual(['bash-pwd-is-sandbox', BASH, GLOB, READ, 'story-edit-then-view']);
  });
});

describe('runStage misuse', () => {
  it.each<[string, (dir: string) => Promise<Partial<RunOptions>>, string, RegExp]>([
    [
      'an unknown stage',
      async () => ({ stage: 'nope' }),
      'UNKNOWN_STAGE',
      /^unknown stage 'nope'\. Known stages: .*register-tools/,
    ],
    [
      'a missing directory',
      async (dir) => ({ dir: join(dir, 'missing') }),
      'NO_COURSE_DIR',
      /^course directory not found: .*missing\. .*--dir/,
    ],
    [
      'a directory without program.ts or package.json',
      async (dir) => {
        await rm(join(dir, 'program.ts'));
        await rm(join(dir, 'package.json'), { force: true });
        return {};
      },
      'NO_PROGRAM',
      /has no program\.ts\. .*looking in the current directory and the ones above it: .*`npx theinference init <dir>`\.$/,
    ],
    [
      'a course directory (with a package.json) without program.ts',
      async (dir) => {
        await rm(join(dir, 'program.ts'));
        await writeFile(join(dir, 'package.json'), '{ "type": "module" }\n');
        return {};
      },
      'NO_PROGRAM',
      /has no program\.ts\. .*`npx theinference init <dir>`\. If \S+ is your course directory, restore the course's program\.ts: cp \S*program\.ts program\.ts$/,
    ],
    [
      'a package.json without "type"',
      async (dir) => {
        await writeFile(join(dir, 'package.json'), '{ "name": "course" }\n');
        return {};
      },
      'NO_PROGRAM',
      /^program\.ts runs as an ES module \(it uses top-level await\), but \S+\/package\.json has no "type": change "type" to "module" \(`npm pkg set type=module`\)\.$/,
    ],
    [
      'a commonjs package.json, as npm init writes',
      async (dir) => {
        await writeFile(join(dir, 'package.json'), '{ "name": "course", "type": "commonjs" }\n');
        return {};
      },
      'NO_PROGRAM',
      /, but \S+\/package\.json says "type": "commonjs": change "type" to "module" \(`npm pkg set type=module`\)\.$/,
    ],
    [
      'a package.json that is not JSON',
      async (dir) => {
        await writeFile(join(dir, 'package.json'), '{ "type": "module", }\n');
        return {};
      },
      'NO_PROGRAM',
      /, but \S+\/package\.json is not valid JSON \(.*\): fix it, with "type": "module" in it\.$/,
    ],
    [
      'a package.json of valid JSON past 1 MB',
      async (dir) => {
        await writeFile(
          join(dir, 'package.json'),
          JSON.stringify({ type: 'module', pad: 'x'.repeat(2 * 1024 * 1024) }),
        );
        return {};
      },
      'NO_PROGRAM',
      /, but \S+\/package\.json cannot be read as JSON \(it is larger than 1 MB, which the grader never reads: a course's package\.json is a few hundred bytes\): fix it/,
    ],
    [
      'a case pattern that matches nothing',
      async () => ({ cases: ['no-such-case'] }),
      'NO_CASES',
      /^--case 'no-such-case' matches no case/,
    ],
  ])('refuses %s', async (_, arrange, code, message) => {
    const dir = await makeCourse(scratch);
    await mkdir(dir, { recursive: true });
    const error = await grade(dir, await arrange(dir)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect([(error as HarnessError).code, (error as HarnessError).message]).toEqual([
      code,
      expect.stringMatching(message),
    ]);
  });
});
