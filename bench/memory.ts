// Peak memory of a grader run: GNU time's %M (the largest single process of the tree, from wait4's rusage) and,
// on Linux, the peak of the summed resident sets of every process in the tree, sampled every 10 ms (several
// program processes run at once, so the sum is what the machine must hold).
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { peakTreeRssKb } from './process-tree.ts';

// Peak memory of one run, in kB; `largestKb` is undefined without GNU time.
export type MemorySample = { treeKb: number; largestKb: number | undefined };

const GNU_TIME = '/usr/bin/time';

// Runs `command args` once under the sampler (and GNU time when installed).
export async function measureMemory(command: string, args: string[], cwd: string): Promise<MemorySample> {
  const dir = await mkdtemp(join(tmpdir(), 'theinference-bench-memory-'));
  try {
    const report = join(dir, 'time.txt');
    const gnu = existsSync(GNU_TIME);
    const child = gnu
      ? execa(GNU_TIME, ['-f', '%M', '-o', report, command, ...args], {
          cwd,
          reject: false,
          env: { ...process.env, NO_COLOR: '1' },
        })
      : execa(command, args, { cwd, reject: false, env: { ...process.env, NO_COLOR: '1' } });
    if (child.pid === undefined) throw new Error(`bench: could not start ${command}`);
    const treeKb = await peakTreeRssKb(child.pid, child);
    const result = await child;
    if (result.exitCode !== 0) {
      const tail = `${result.stdout.slice(-1000)}\n${result.stderr.slice(-1000)}`;
      throw new Error(`bench: memory run exited ${result.exitCode}:\n${tail}`);
    }
    const largestKb = gnu ? Number((await readFile(report, 'utf8')).trim().split('\n').at(-1)) : undefined;
    return { treeKb, largestKb };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
