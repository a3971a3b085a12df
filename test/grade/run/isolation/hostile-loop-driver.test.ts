// Issue 24's attacks on the driver at the stage agent-loop, each asserted against the trusted job
// (test/support/trusted-job.ts: a separate install of the grader, the submission a plain checkout, graded with --dir,
// CI set), for one submission and for a class, in every reporter. src/agent-loop.ts is a stub that throws; the
// attacks are a program.ts that prints results it works out of the cases, a program.ts that loops through a file of
// its own, and a tsconfig.json and package.json that redirect the driver's imports. Each fails, and each report
// says why: the stub threw. The honest submission beside them keeps the old 774-line program.ts and passes, with the
// one-line note. Each grader run is shared by the assertions on all of its reports.
import { mkdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, useScratch } from '../../course-fixture.ts';
import { checkOut, gradeStep, installGrader, type Step } from '../../../support/trusted-job.ts';
import { survivorsIn } from './hostile-course.ts';

const scratch = useScratch();
let grader: string;
beforeAll(async () => {
  grader = await installGrader(scratch.root);
});

const LOOP = { stage: 'agent-loop' } as const;
const NOTE = "program.ts is not the course's: the grader never runs it (it runs its own driver)";
// What the stub throws, which every report gives as the reason each case failed.
const WHY = 'stub: runLoop is not written';
// A case with a tool call, one whose tool throws, and one without tools.
const CASES = [
  '--case',
  'tools-single-call',
  '--case',
  'tools-execute-throws',
  '--case',
  'stop-end-turn-without-tools',
];
const ATTACKS = [
  ['hostile-loop-prints-results', 'prints results worked out of the turns and outputs'],
  ['hostile-own-loop', 'imports a loop of its own instead of src/agent-loop.ts'],
  ['hostile-redirect-imports', 'redirects the driver’s imports in tsconfig.json and package.json'],
] as const;

// The reporters that write a file, with how many cases each report says failed.
const FILE_REPORTERS: Record<string, { ext: string; failed: (text: string) => number }> = {
  json: { ext: 'json', failed: (t) => jsonStatuses(t).filter((s) => s === 'fail').length },
  junit: { ext: 'xml', failed: (t) => count(t, /<failure /g) },
  tap: { ext: 'tap', failed: (t) => count(t, /^not ok /gm) },
  github: { ext: 'log', failed: (t) => count(t, /^::error /gm) },
  gradescope: {
    ext: 'json',
    failed: (t) => (JSON.parse(t) as { tests: { status: string }[] }).tests.filter((x) => x.status === 'failed').length,
  },
  html: { ext: 'html', failed: (t) => Number(/<strong>(\d+)<\/strong> failed/.exec(t)?.[1]) },
};

function count(text: string, pattern: RegExp): number {
  return (text.match(pattern) ?? []).length;
}

function jsonStatuses(text: string): string[] {
  return (JSON.parse(text) as { tests: { status: string }[] }).tests.map((t) => t.status);
}

// Grades one submission with the terminal report on stdout and every other reporter to a file of its own; returns
// the step and each report's text by reporter.
async function gradeEveryReporter(submission: string): Promise<{ step: Step; reports: Map<string, string> }> {
  const dir = join(scratch.root, 'reports', basename(submission));
  await mkdir(dir, { recursive: true });
  const files = Object.entries(FILE_REPORTERS).map(([name, r]) => [name, join(dir, `report.${name}.${r.ext}`)]);
  const step = await gradeStep(
    grader,
    scratch.root,
    submission,
    [...CASES, '--reporter', 'pretty', ...files.flatMap(([name, file]) => ['--reporter', `${name}:${file}`])],
    LOOP,
  );
  const reports = new Map<string, string>([['pretty', step.stdout]]);
  for (const [name, file] of files) reports.set(name!, await readFile(file!, 'utf8'));
  return { step, reports };
}

describe("the submission's program.ts and its settings never grade a loop", () => {
  it('is a real attack: run by hand, hostile-loop-prints-results prints what the driver prints for the reference', async () => {
    const files = CASES.filter((c) => c !== '--case').map((c) => join(REPO, 'cases', 'agent-loop', `${c}.json`));
    const lines = await Promise.all(files.map(async (f) => JSON.stringify(JSON.parse(await readFile(f, 'utf8')))));
    const program = join(REPO, 'test', 'fixtures', 'hostile-loop-prints-results', 'program.ts');
    const [attack, reference] = await Promise.all([
      execa('node', ['--import', 'tsx', program], { cwd: REPO, input: `${lines.join('\n')}\n` }),
      execa('node', ['--import', 'tsx', join(REPO, 'src', 'modes', 'driver.ts'), 'loop', ...files], { cwd: REPO }),
    ]);
    const parsed = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown);
    expect(parsed(attack.stdout)).toHaveLength(3);
    expect(parsed(attack.stdout)).toEqual(parsed(reference.stdout));
  });

  it.each(ATTACKS)('fails the stub of %s (it %s), and every reporter says the stub threw', async (scenario) => {
    const submission = await checkOut(scratch.root, scenario, 'agent-loop');
    const { step, reports } = await gradeEveryReporter(submission);
    expect(step.exitCode).toBe(1);
    expect(step.stdout).toContain('0 passed, 3 failed');
    for (const [name, text] of reports) {
      expect([name, text.includes(WHY)]).toEqual([name, true]);
      if (name !== 'pretty') expect([name, FILE_REPORTERS[name]!.failed(text)]).toEqual([name, 3]);
    }
    // The note says program.ts is not the course's where it is not; the redirects were never obeyed.
    expect(step.stdout.includes(NOTE)).toBe(scenario !== 'hostile-redirect-imports');
    expect(`${[...reports.values()].join('\n')}${step.stderr}`).not.toContain('EVIL MODULE LOADED');
    expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]);
  });

  it('passes a correct loop kept beside the old 774-line program.ts, saying so in one line, in every reporter', async () => {
    const submission = await checkOut(scratch.root, 'outdated-program', 'agent-loop');
    const { step, reports } = await gradeEveryReporter(submission);
    expect([step.exitCode, step.stdout.split('\n').filter((l) => l.includes(NOTE)).length]).toEqual([0, 1]);
    expect(step.stdout).toContain('3 passed, 0 failed');
    for (const [name, text] of reports) {
      if (name !== 'pretty') expect([name, FILE_REPORTERS[name]!.failed(text)]).toEqual([name, 0]);
    }
    expect(jsonStatuses(reports.get('json')!)).toEqual(['pass', 'pass', 'pass']);
  });
});

describe('a class of loops: each attack fails beside an honest submission, in every reporter', () => {
  let attacks: string[];
  let honest: string;
  beforeAll(async () => {
    attacks = await Promise.all(ATTACKS.map(([scenario]) => checkOut(scratch.root, scenario, 'agent-loop')));
    honest = await checkOut(scratch.root, 'outdated-program', 'agent-loop');
  });

  // One case a class run, so that six runs of four submissions stay cheap: the one with a tool call.
  it.each(Object.keys(FILE_REPORTERS))(
    '--reporter %s: a report per submission says why, and the table agrees',
    async (reporter) => {
      const out = join(scratch.root, 'class', reporter);
      await mkdir(out, { recursive: true });
      const output = reporter === 'html' ? `${out}/class.html` : `${out}/{name}.${FILE_REPORTERS[reporter]!.ext}`;
      const dirs = [...attacks, honest].flatMap((dir) => ['--dir', dir]);
      const step = await gradeStep(
        grader,
        scratch.root,
        attacks[0]!,
        [...dirs.slice(2), '--case', 'tools-single-call', '--reporter', reporter, '--output', output],
        LOOP,
      );
      expect(step.exitCode).toBe(1);
      const line = (dir: string): string | undefined =>
        step.stdout.split('\n').find((r) => r.includes(` ${basename(dir)} — `));
      for (const dir of attacks) expect(line(dir)).toMatch(/ — 0 passed, 1 failed$/);
      expect(line(honest)).toMatch(/ — 1 passed, 0 failed$/);
      expect(step.stdout).toMatch(/^1 of 4 submissions passed/m);
      // The note, once per submission whose program.ts is not the course's (all but hostile-redirect-imports).
      expect(step.stderr.split('\n').filter((l) => l.includes(NOTE))).toHaveLength(3);
      if (reporter === 'html') {
        // One page for the class: the stub's throw is its one mistake, made by the three attacks.
        const page = await readFile(output, 'utf8');
        expect(page).toContain(WHY);
        for (const dir of [...attacks, honest]) expect(page).toContain(basename(dir));
        return;
      }
      for (const dir of attacks) {
        const text = await readFile(output.replace('{name}', basename(dir)), 'utf8');
        expect([basename(dir), text.includes(WHY), FILE_REPORTERS[reporter]!.failed(text)]).toEqual([
          basename(dir),
          true,
          1,
        ]);
      }
      const passed = await readFile(output.replace('{name}', basename(honest)), 'utf8');
      expect(FILE_REPORTERS[reporter]!.failed(passed)).toBe(0);
      expect(await survivorsIn(join(scratch.root, 'submissions'))).toEqual([]);
    },
  );
});
