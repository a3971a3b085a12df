// What grading a class in one run saves: 20 submissions (copies of the reference course, every fifth with a
// wrong dispatcher) graded by one `theinference test --dir '<class>/*'` against 20 runs of
// `theinference test --dir <submission>` one after another, with the same --jobs, sandboxed, without variants and
// with them. Each approach must give every submission its verdict: the right ones pass, the wrong ones fail.
// Without variants, the class's floor runs in the same rounds: one process grading every submission's cases in
// turn (bench/floor.ts), the least work that makes every call of the class.
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { writeReferenceCourse } from '../test/support/reference-course.ts';

// The class: how many submissions, and which of them hand in a wrong dispatcher.
export const SUBMISSIONS = 20;
const WRONG_EVERY = 5;
const WRONG = 'test/fixtures/wrong-execute/missing-alias-read.ts';

// One timed approach: whether variants ran, how the class was graded, and its wall time (ms).
export type ClassSample = { variants: boolean; approach: 'one run' | 'separate runs' | 'floor'; ms: number };

// Grades the class `rounds` times each way, variants off then on, alternating which way goes first.
export async function measureClass(options: {
  packageRoot: string;
  stage: string;
  rounds: number;
  // tsx's loader, which the floor runs under.
  tsx: string;
  log: (line?: string) => void;
}): Promise<ClassSample[]> {
  const root = await mkdtemp(join(tmpdir(), 'theinference-bench-class-'));
  try {
    const dirs: { dir: string; wrong: boolean }[] = [];
    for (let k = 1; k <= SUBMISSIONS; k++) {
      const dir = join(root, 'class', `student-${String(k).padStart(2, '0')}`);
      await writeReferenceCourse(dir);
      const wrong = k % WRONG_EVERY === 0;
      if (wrong) await cp(join(options.packageRoot, WRONG), join(dir, 'src', 'execute.ts'));
      dirs.push({ dir, wrong });
    }
    const bin = join(options.packageRoot, 'bin', 'theinference.js');
    // The grader as a CI job would run it, but with variants said outright rather than left to CI.
    const grade = (args: string[], variants: boolean) =>
      execa(
        process.execPath,
        [
          bin,
          'test',
          '--stage',
          options.stage,
          '--isolation',
          'required',
          variants ? '--variants' : '--no-variants',
          ...args,
        ],
        {
          cwd: root,
          env: { ...process.env, NO_COLOR: '1', CI: '', THEINFERENCE_VARIANTS: '' },
          reject: false,
          stdin: 'ignore',
        },
      );
    const oneRun = async (variants: boolean): Promise<void> => {
      const summary = join(root, 'summary.json');
      const run = await grade(['--dir', join(root, 'class', '*'), '--summary', summary], variants);
      const rows = (JSON.parse(await readFile(summary, 'utf8')) as { submissions: { name: string; verdict: string }[] })
        .submissions;
      const wrongNames = new Set(dirs.filter((d) => d.wrong).map((d) => d.dir.split('/').at(-1)));
      const ok =
        run.exitCode === 1 &&
        rows.length === SUBMISSIONS &&
        rows.every((r) => r.verdict === (wrongNames.has(r.name) ? 'fail' : 'pass'));
      if (!ok)
        throw new Error(
          `bench: the class run did not give every submission its verdict (exit ${run.exitCode})\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
        );
    };
    const separateRuns = async (variants: boolean): Promise<void> => {
      for (const { dir, wrong } of dirs) {
        const run = await grade(['--dir', dir], variants);
        if (run.exitCode !== (wrong ? 1 : 0)) {
          throw new Error(
            `bench: ${dir} exited ${run.exitCode}, not ${wrong ? 1 : 0}\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
          );
        }
      }
    };
    // Every case of every submission in one process; only the wrong submissions' cases may fail.
    const floor = async (): Promise<void> => {
      const run = await execa(
        process.execPath,
        [
          '--import',
          options.tsx,
          join(options.packageRoot, 'bench', 'floor.ts'),
          dirs.map((d) => d.dir).join(delimiter),
          options.stage,
        ],
        { cwd: root, reject: false, stdin: 'ignore' },
      );
      const failed = /^failed: (.*)$/m.exec(run.stdout)?.[1]?.split(', ') ?? [];
      const wrongUrls = dirs.filter((d) => d.wrong).map((d) => pathToFileURL(join(d.dir, '/')).href);
      const ok =
        /^\d+ passed, \d+ failed$/m.test(run.stdout) &&
        failed.length > 0 &&
        failed.every((f) => wrongUrls.some((url) => f.endsWith(`(${url})`)));
      if (!ok)
        throw new Error(
          `bench: the class's floor did not fail exactly the wrong submissions' cases\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`,
        );
    };
    const samples: ClassSample[] = [];
    for (const variants of [false, true]) {
      for (let round = 0; round < options.rounds; round++) {
        const order =
          (round + (variants ? 1 : 0)) % 2 === 0
            ? (['one run', 'separate runs', 'floor'] as const)
            : (['floor', 'separate runs', 'one run'] as const);
        for (const approach of order) {
          if (approach === 'floor' && variants) continue;
          const started = performance.now();
          await (approach === 'one run' ? oneRun(variants) : approach === 'floor' ? floor() : separateRuns(variants));
          const ms = performance.now() - started;
          samples.push({ variants, approach, ms });
          options.log(`  ${variants ? 'variants' : 'no variants'}, ${approach.padEnd(13)} ${(ms / 1000).toFixed(1)} s`);
        }
      }
    }
    return samples;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
