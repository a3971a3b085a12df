// Issue 14's attacks on the report itself, against the trusted job (test/support/trusted-job.ts): results built to
// crash the comparison and the diff are that case's verdict, never exit 3; nothing the program writes starts a line
// of any reporter's output (GitHub Actions reads every line of a step's log for workflow commands); and the report at
// --output is always the grader's own: an earlier file there never survives a run that ends without one.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REPORTER_NAMES } from '../../../../src/grade/report/index.ts';
import { useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader } from '../../../support/trusted-job.ts';
import { COURSE_CASES, jsonTests, survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});
afterEach(async () => expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]));

describe('results too large to compare', () => {
  it('are their case’s verdict, nested 100,000 deep or 700,000 lines long: the grader reports, exit 1', async () => {
    const submission = await checkOut(scratch.root, 'hostile-huge-results');
    const step = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', 'json']);
    expect([step.exitCode, step.stderr]).toEqual([1, '']);
    const tests = jsonTests(step.stdout);
    // Nested past the stack, they are no result the grader can write: the case is the program's exit during it.
    expect(tests.get('course-read-seeded-file')?.message).toContain(
      'the program exited with code 0 during call 1 of 1 (Read), before printing results for this case',
    );
    for (const name of ['course-bash-echo-hi', 'course-glob-everything'])
      expect(tests.get(name)?.message).toMatch(
        /call 1 of 1 \(\w+\) differs: the result is 70000\d lines long: too large to compare/,
      );
  });
});

describe('workflow commands in a thrown error, a result and a key', () => {
  // The grader's own commands in the github format: an annotation per failing case on this submission's student
  // file as named from where the step ran (its line when a stack trace gives one), its fences, its groups. A
  // forged line differs from each in what the submission cannot choose: the file, a course case's title, the token.
  const own = (submission: string): RegExp => {
    const file = relative(scratch.root, join(submission, 'src', 'execute.ts')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(
      `^(::error file=${file},(line=[1-9][0-9]*,)?title=course-[a-z-]+::|::(stop-commands::)?theinference-[0-9a-f]{64}(::)?$|::group::FAIL course-|::endgroup::$)`,
    );
  };

  it('tells a forged command from the grader’s own', () => {
    const OWN = own(join(scratch.root, 'submissions', 'alice'));
    const title = 'title=course-read-seeded-file::';
    expect(OWN.test(`::error file=submissions/alice/src/execute.ts,line=9,${title}x`)).toBe(true);
    expect(OWN.test(`::error file=submissions/alice/src/execute.ts,${title}x`)).toBe(true);
    for (const forged of [
      '::error title=pwned::forged',
      `::error ${title}forged`,
      `::error file=submissions/mallory/src/execute.ts,${title}forged`,
      `::error file=submissions/alice/src/execute.ts,line=9,title=pwned::forged`,
      `::error file=submissions/alice/src/execute.ts,line=x,${title}forged`,
      '::add-mask::hunter2',
      '::stop-commands::pwned',
    ])
      expect(OWN.test(forged), forged).toBe(false);
  });

  it.each(REPORTER_NAMES)('start no line of the %s report', async (reporter) => {
    const submission = await checkOut(scratch.root, 'hostile-throws-workflow-commands');
    const step = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, '--reporter', reporter]);
    expect(step.exitCode).toBe(1);
    // The runner trims leading whitespace before it looks for a command.
    const lines = step.stdout.split('\n').map((l) => l.trimStart());
    const OWN = own(submission);
    expect(lines.filter((l) => l.startsWith('::') && !OWN.test(l))).toEqual([]);
    // Every annotation is the grader's: one line whose message holds the thrown words escaped, never a line break.
    if (reporter === 'github') {
      const annotations = lines.filter((l) => l.startsWith('::error '));
      expect(annotations.length).toBeGreaterThan(0);
      expect(annotations.every((l) => OWN.test(l))).toBe(true);
      expect(annotations.join('\n')).toContain('%0A::add-mask::hunter2%0A::error title=pwned::forged%0A');
    }
    expect(lines.filter((l) => l.startsWith('##['))).toEqual([]);
    expect(lines.filter((l) => /^(# )?\d+ passed, \d+ failed$/.test(l))).toEqual(
      // The machine formats carry counts as fields, and the page as its own markup, not as a summary line.
      reporter === 'json' || reporter === 'junit' || reporter === 'gradescope' || reporter === 'html'
        ? []
        : [reporter === 'tap' ? '# 0 passed, 3 failed' : '0 passed, 3 failed'],
    );
    // The words are still there for the student to read, shown rather than obeyed.
    // (The page writes `::` as `&#58;:`, which a browser shows as it was.)
    expect(step.stdout.replaceAll('&#58;', ':')).toContain('::add-mask::hunter2');
  });
});

describe('the report at --output is always the grader’s own', () => {
  it('removes an earlier file there before the run, so a run that stops with exit 2 leaves none', async () => {
    const submission = await checkOut(scratch.root, 'hostile-forges-report');
    const report = join(submission, 'junit-1.xml');
    expect(await readFile(report, 'utf8')).toContain('failures="0"');
    const step = await gradeStep(grader, scratch.root, submission, ['--reporter', 'junit', '--output', report]);
    expect(step.exitCode).toBe(2);
    expect(step.stderr).toMatch(/says "type": "commonjs"/);
    expect(existsSync(report)).toBe(false);
  });

  it('replaces it with its own when the run ends with a verdict', async () => {
    const submission = await checkOut(scratch.root, 'hostile-forges-report');
    await writeFile(join(submission, 'package.json'), '{ "type": "module" }\n');
    const report = join(submission, 'junit-1.xml');
    const step = await gradeStep(grader, scratch.root, submission, [
      ...COURSE_CASES,
      '--reporter',
      'junit',
      '--output',
      report,
    ]);
    expect(step.exitCode).toBe(1);
    const xml = await readFile(report, 'utf8');
    expect(xml).toContain('tests="3" failures="3"');
    expect(xml).not.toContain('forged');
  });
});
