// Issue 24's threat model at the stage agent-loop (docs/trusted-job.md, "The student's code shares the driver's
// process"): a forged result line is said to gain nothing because it "says what the loop could have sent". But the
// grader sends each loop case whole on stdin, every turn and every output, and the student's module shares the
// process that reads it. test/fixtures/hostile-loop-reads-stdin never calls the model: it reads its case off stdin,
// works the results out of the script and swaps them into the driver's line. The trusted job (the course
// repository's checkout, CI set, variants on) still passes it on every case and every variant: an open gap, held
// here by `it.fails` until the script stays out of the student's process (docs/trusted-job.md, "An open gap at
// agent-loop", says how). Then flip it to `it`.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { splitLoopResults } from '../../../../src/modes/loop/judge/loop-results.ts';
import { makeLoopCourse, REPO, useScratch } from '../../course-fixture.ts';
import { CHECKOUT_BIN, checkOut, gradeStep } from '../../../support/trusted-job.ts';
import { jsonTests } from './hostile-course.ts';

const scratch = useScratch();
// A case with a tool call, one whose tool throws, and one without tools.
const CASES = ['tools-single-call', 'tools-execute-throws', 'stop-end-turn-without-tools'];

// Each case's results as the judge reads them (every request whole), from the driver's result lines for the cases
// sent on stdin as the grader sends them, in the course directory `dir` (its `{"calling":…}` lines left out: they
// say which request the loop heads for, and this one heads for none).
async function driverLines(dir: string): Promise<unknown[]> {
  const files = CASES.map((c) => join(REPO, 'cases', 'agent-loop', `${c}.json`));
  const lines = await Promise.all(files.map(async (f) => JSON.stringify(JSON.parse(await readFile(f, 'utf8')))));
  const driver = join(REPO, 'src', 'modes', 'driver.ts');
  const { stdout } = await execa('node', ['--import', 'tsx', driver, 'loop', '-'], {
    cwd: dir,
    input: `${lines.join('\n')}\n`,
  });
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { results?: unknown[] })
    .flatMap((line) => (line.results === undefined ? [] : [splitLoopResults(line.results)]));
}

describe('a loop that reads its script off stdin instead of calling the model', () => {
  it('is a real attack: through the package driver it prints what the reference loop makes it print', async () => {
    const [attack, reference] = await Promise.all([
      makeLoopCourse(scratch, 'hostile-loop-reads-stdin').then(driverLines),
      makeLoopCourse(scratch).then(driverLines),
    ]);
    expect(attack).toHaveLength(CASES.length);
    expect(attack).toEqual(reference);
  });

  it.fails('fails in the trusted job, on every case', async () => {
    const submission = await checkOut(scratch.root, 'hostile-loop-reads-stdin', 'agent-loop');
    const args = [...CASES.flatMap((c) => ['--case', c]), '--seed', '461850198', '--reporter', 'json'];
    const step = await gradeStep(CHECKOUT_BIN, scratch.root, submission, args, { stage: 'agent-loop' });
    expect([...jsonTests(step.stdout)].map(([name, t]) => [name, t.status])).toEqual(
      CASES.map((c) => [c, 'fail']).sort(),
    );
    expect(step.exitCode).toBe(1);
  });
});
