// The shipped Gradescope run_autograder (integrations/gradescope/), run as Gradescope runs it: the course repository
// in <root>/source (a copy of this one, since the script closes it to other users; its node_modules a link, whose
// modes the script never changes), the student's upload in <root>/submission (no node_modules, as uploads come), no
// CI variable. It grades with and without the sandbox, runs the variants, and always leaves results.json: a misuse
// and a program that does not start are one readable test scoring 0.
import { readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { standbyFiles } from '../../src/grade/run/standby-files.ts';
import { driverFiles } from '../../src/modes/driver-files.ts';
import { REPO, writeReferenceCourse } from '../support/reference-course.ts';

const SCRIPT = join(REPO, 'integrations', 'gradescope', 'run_autograder');
// What of the repository the grader runs with: never its tests, whose fixtures may hold the reference too.
const COPIED = ['bin', 'src', 'cases', 'snapshots', 'schemas', 'course-template', 'docs', 'program.ts'];
let scratch: string;
let source: string;
let cases: number;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'theinference-autograder-'));
  // As /autograder is: every user passes through it to the driver's files.
  await chmod(scratch, 0o755);
  cases = (await loadCases(REPO, 'register-tools')).length;
  source = join(scratch, 'course-repository');
  for (const entry of [...COPIED, 'package.json', 'tsconfig.json']) {
    await cp(join(REPO, entry), join(source, entry), { recursive: true });
  }
  await symlink(join(REPO, 'node_modules'), join(source, 'node_modules'), 'dir');
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

// A fresh /autograder holding the upload `fill` writes; runs run_autograder there and reads results.json.
async function autograde(
  name: string,
  fill: (submission: string) => Promise<void>,
  isolation = 'auto',
  stage?: string,
) {
  const root = join(scratch, name);
  await mkdir(join(root, 'submission'), { recursive: true });
  await symlink(source, join(root, 'source'), 'dir');
  await fill(join(root, 'submission'));
  const { CI: _, GITHUB_ACTIONS: __, ...env } = process.env;
  const run = await execa(SCRIPT, [], {
    env: {
      ...env,
      AUTOGRADER_ROOT: root,
      THEINFERENCE_ISOLATION: isolation,
      NO_COLOR: '1',
      ...(stage === undefined ? {} : { THEINFERENCE_STAGE: stage }),
    },
    extendEnv: false,
    reject: false,
  });
  const results = JSON.parse(await readFile(join(root, 'results', 'results.json'), 'utf8'));
  return { run, results };
}

const reference = (dir: string) => writeReferenceCourse(dir, { linkModules: false });

describe('run_autograder', () => {
  it.each(['off', 'auto'])(
    'grades the reference upload in full with the variants, --isolation %s, and exits 0',
    async (isolation) => {
      const { run, results } = await autograde(`reference-${isolation}`, reference, isolation);
      expect(run.exitCode).toBe(0);
      expect(results.output).not.toContain('is not installed');
      expect([results.score, results.max_score, results.tests.length]).toEqual([cases, cases, cases]);
      expect(results.extra_data.seed).toEqual(expect.any(Number));
      expect(results.output).toMatch(/^variants: seed \d+, \d+ cases also checked on renamed files/m);
    },
    180_000,
  );

  it('grades an upload of execute.ts alone in a course directory it lays out: one test scoring 0 for one that cannot start', async () => {
    const { run, results } = await autograde('no-program', async (dir) => {
      await writeFile(join(dir, 'execute.ts'), 'export const makeExecute = 1;\n');
    });
    expect(run.exitCode).toBe(0);
    expect(results.score).toBe(0);
    expect(results.tests).toHaveLength(1);
    expect(results.tests[0].output).toContain('your program did not start');
  });

  it("grades an upload of another stage's own file alone, and refuses one of an earlier stage's file in its place", async () => {
    const planCases = (await loadCases(REPO, 'plan-todos')).length;
    const stub = await readFile(join(REPO, 'course-template', 'src', 'plan-loop.ts'), 'utf8');
    const own = await autograde(
      'plan-loop-alone',
      (dir) => writeFile(join(dir, 'plan-loop.ts'), stub),
      'off',
      'plan-todos',
    );
    expect([own.results.score, own.results.max_score]).toEqual([0, planCases]);
    expect(JSON.stringify(own.results)).toContain('is still the stub');
    const other = await autograde(
      'execute-for-plan',
      (dir) => writeFile(join(dir, 'execute.ts'), 'export const makeExecute = 1;\n'),
      'off',
      'plan-todos',
    );
    expect(other.results.score).toBe(0);
    expect(other.results.tests).toHaveLength(1);
    expect(other.results.tests[0].output).toContain('neither program.ts nor src/plan-loop.ts');
  }, 180_000);

  it('says once why a program does not start, in one test worth the stage', async () => {
    const { results } = await autograde('throws', async (dir) => {
      await reference(dir);
      await writeFile(join(dir, 'src', 'execute.ts'), 'throw new Error("not ready");\nexport const makeExecute = 1;\n');
    });
    expect(results.tests).toHaveLength(1);
    expect(results.tests[0]).toMatchObject({ name: 'your program did not start', score: 0, max_score: cases });
    expect(results.tests[0].output.match(/not ready/g)?.length).toBeLessThanOrEqual(3);
    expect(JSON.stringify(results).length).toBeLessThan(20_000);
  });

  // A trial's attack: run_autograder runs as root and copies the upload's own file into the course it lays out before
  // the answer key is closed, so a link there (to the course's reference, or to a file only root reads) would be
  // copied as what it names. A link, or a file under a folder that is one, is refused, saying so.
  it.each([
    [
      'the file',
      'execute.ts',
      (dir: string) => symlink(join(dir, '..', 'source', 'src', 'execute.ts'), join(dir, 'execute.ts')),
    ],
    [
      'its folder',
      'src/execute.ts',
      (dir: string) => symlink(join(dir, '..', 'source', 'src'), join(dir, 'src'), 'dir'),
    ],
  ])(
    'refuses an upload whose own file is a link (%s) to the reference: score 0, saying it is a link',
    async (_, shown, fill) => {
      const { run, results } = await autograde(`linked-${shown.replace('/', '-')}`, fill, 'off');
      expect(run.exitCode).toBe(0);
      expect([results.score, results.tests.length]).toEqual([0, 1]);
      expect(results.tests[0].output).toBe(
        `In your upload, ${shown} is a link, not the file itself. Upload the file itself and submit again.`,
      );
    },
  );

  // Issue 24: where the container has no user namespaces, `auto` grades unsandboxed, and the course repository
  // (reference included) is at a documented path. The program runs as nobody, and run_autograder closes the
  // repository to it: an upload whose dispatcher is the reference, imported from there, cannot load it.
  it('gives no score to an upload that imports the reference from <root>/source, graded unsandboxed', async () => {
    const { results } = await autograde(
      'imports-reference',
      async (dir) => {
        await reference(dir);
        const course = join(dir, '..', 'source', 'src', 'execute.ts');
        await writeFile(join(dir, 'src', 'execute.ts'), `export { makeExecute } from '${course}';\n`);
      },
      'off',
    );
    expect(results.score).toBe(0);
  }, 180_000);

  it("opens to a program exactly the driver's files, as sources and as built, and package.json", () => {
    const script = readFileSync(SCRIPT, 'utf8');
    const listed = /^open_to_programs=\(([^)]*)\)/m.exec(script)?.[1]?.split(/\s+/).filter(Boolean);
    const sources = [...driverFiles(), ...standbyFiles()].map((file) => relative(REPO, file));
    const built = sources.map((file) => file.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js'));
    expect(new Set(listed)).toEqual(new Set(['package.json', ...sources, ...built]));
  });
});
