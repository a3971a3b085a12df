// Names a submission chooses (a file's name, a link's target, its directory's name, a line of its package.json)
// reach the terminal and the CI log only as visible text, in the trusted job (test/support/trusted-job.ts): the
// pretty and github reporters, the stderr warnings beside them, the class table and an error that stops the run.
// None of OSC 52 (a clipboard write), OSC 8 (a hyperlink), a screen clear, a fake green "117 passed" line, or a line
// break followed by `::error`, `::warning` or `::add-mask::` acts: each is shown, escaped, where the grader names it.
import { rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader, type Step } from '../../../support/trusted-job.ts';
import { COURSE_CASES } from './hostile-course.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});

// Everything a terminal or the Actions runner would act on; no '/' (a file's name cannot hold one).
const HOSTILE =
  '\u001b]52;c;Y2xpcGJvYXJk\u0007' +
  '\u001b]8;;mailto:evil@example.com\u0007here\u001b]8;;\u0007' +
  '\u001b[2J\u001b[H' +
  '\u001b[32m117 passed\u001b[0m' +
  '\n::error::forged error\n::warning::forged warning\n::add-mask::theinference\n';
const TARGET = `/tmp/${HOSTILE}https://evil.example/`;

// The submission with a link of a hostile name to a hostile target.
async function hostileSubmission(): Promise<string> {
  const submission = await checkOut(scratch.root, 'hostile-chosen-names');
  await symlink(TARGET, join(submission, `src-${HOSTILE}`));
  return submission;
}

// What must never reach a terminal or the log: an escape or a bell, and a line a workflow command starts.
function expectNothingActs(text: string): void {
  expect(text).not.toMatch(/[\u001b\u0007\u009b]/);
  expect(text).not.toMatch(/^\s*::(error|warning|add-mask)::/m);
  expect(text).not.toMatch(/^\s*117 passed/m);
}

const both = (step: Step): string => `${step.stdout}\n${step.stderr}`;

describe('a link whose name and target are hostile', () => {
  it.each<[string, string[]]>([
    ['pretty', []],
    ['github', ['--reporter', 'github']],
  ])('is named in the %s output as visible text, and nothing in it acts', async (_, args) => {
    const submission = await hostileSubmission();
    const step = await gradeStep(grader, scratch.root, submission, [...COURSE_CASES, ...args]);
    expect(step.exitCode).toBe(0);
    expectNothingActs(both(step));
    // Still named, escaped: the warning the link earns says which link, on one line.
    const warning = both(step)
      .split('\n')
      .find((line) => line.includes('is not there for your program'));
    expect(warning).toContain('src-␛]52;c;Y2xpcGJvYXJk␇');
    expect(warning).toContain('␛[32m117 passed␛[0m\\n::error::forged error\\n::warning::forged warning');
    expect(warning).toContain('(a link to /tmp/␛]52;c;');
  });
});

describe('a class with a submission of a hostile name', () => {
  it('shows the name in the table and the warnings as visible text, and nothing in it acts', async () => {
    const submission = await hostileSubmission();
    const named = join(scratch.root, 'submissions', `x-${HOSTILE}`);
    await rename(submission, named);
    const other = await checkOut(scratch.root, 'hostile-chosen-names');
    const step = await gradeStep(grader, scratch.root, named, [...COURSE_CASES, '--dir', other]);
    expect(step.exitCode).toBe(0);
    expectNothingActs(both(step));
    expect(step.stdout).toContain('x-␛]52;c;Y2xpcGJvYXJk␇');
  });
});

describe('a package.json of hostile text', () => {
  it('stops the run (exit 2) with a message that quotes it as visible text', async () => {
    const submission = await checkOut(scratch.root, 'hostile-chosen-names');
    await rm(join(submission, 'package.json'));
    await writeFile(join(submission, 'package.json'), `a${HOSTILE}`);
    const step = await gradeStep(grader, scratch.root, submission, COURSE_CASES);
    expect(step.exitCode).toBe(2);
    expectNothingActs(both(step));
    expect(step.stderr).toContain('is not valid JSON');
  });
});
