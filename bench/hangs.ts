// What hangs cost a student's run: the real `theinference test` on a temp copy of the course whose `echo` never
// returns, graded on the whole stage with the default --timeout and --jobs. The stage has three cases that call
// echo, so three cases hang; the rest must pass. Wall time from spawn to exit, sandboxed and not.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { copyCourse } from './course-copy.ts';

// How echo hangs: a loop that never yields, and an await on a promise that a timer keeps waiting for ever.
const HANGS = {
  'echo loops (`while (true) {}`)': 'while (true) {}',
  'echo awaits for ever (a timer keeps the process alive)': 'return new Promise(() => setInterval(() => {}, 60_000));',
} as const;

// One measured run: which hang, which --isolation, its wall time (ms) and its verdict line.
export type HangSample = { hang: string; isolation: string; ms: number; verdict: string };

// Grades the course with each hang `runs` times under each --isolation mode, rotating the order each round.
// Throws unless every run exits 1 with exactly the cases that call echo failed.
export async function measureHangs(options: {
  packageRoot: string;
  stage: string;
  runs: number;
  isolations: readonly string[];
}): Promise<HangSample[]> {
  const course = await copyCourse();
  try {
    const executeFile = join(course.dir, 'src', 'execute.ts');
    const reference = await readFile(executeFile, 'utf8');
    const echo = /case 'echo':\n(\s*)return \{ content: input\.text \};/;
    if (!echo.test(reference))
      throw new Error("bench: src/execute.ts has no `case 'echo': return { content: input.text };` to make hang");
    const echoCases = await countEchoCases(options.packageRoot, options.stage);
    const bin = join(options.packageRoot, 'bin', 'theinference.js');
    const pairs = Object.entries(HANGS).flatMap(([hang, code]) =>
      options.isolations.map((isolation) => ({ hang, code, isolation })),
    );
    const samples: HangSample[] = [];
    for (let round = 0; round < options.runs; round++) {
      for (let k = 0; k < pairs.length; k++) {
        const { hang, code, isolation } = pairs[(round + k) % pairs.length]!;
        await writeFile(
          executeFile,
          reference.replace(echo, (_, indent: string) => `case 'echo':\n${indent}${code}`),
        );
        const started = performance.now();
        const run = await execa(
          process.execPath,
          [bin, 'test', '--stage', options.stage, '--dir', course.dir, '--isolation', isolation],
          {
            cwd: course.dir,
            env: { ...process.env, NO_COLOR: '1' },
            reject: false,
            stdin: 'ignore',
          },
        );
        const ms = performance.now() - started;
        const verdict = /^\d+ passed, (\d+) failed$/m.exec(run.stdout);
        if (run.exitCode !== 1 || verdict?.[1] !== String(echoCases)) {
          throw new Error(
            `bench: the course whose ${hang} should fail its ${echoCases} echo cases and exit 1; it exited ${run.exitCode}:\n${run.stdout.split('\n').slice(-20).join('\n')}`,
          );
        }
        samples.push({ hang, isolation, ms, verdict: verdict[0] });
      }
    }
    return samples;
  } finally {
    await course.remove();
  }
}

async function countEchoCases(packageRoot: string, stage: string): Promise<number> {
  const dir = join(packageRoot, 'cases', stage);
  let count = 0;
  for (const name of (await readdir(dir)).filter((n) => n.endsWith('.json'))) {
    const data = JSON.parse(await readFile(join(dir, name), 'utf8')) as { calls: { tool: string }[] };
    if (data.calls.some((call) => call.tool === 'echo')) count += 1;
  }
  return count;
}
