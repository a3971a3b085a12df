// The per-process approach: one `node --import tsx program.ts dispatch <case>` per case, two at a time (the
// machine's cores), each result compared with its snapshot. What a grader without batching would cost.
import { driverEntry } from '../src/modes/driver-files.ts';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { runCommand } from './run-command.ts';

// Grades every case of `stage` with one process per case; throws naming the cases that did not match.
export async function gradePerProcess(options: {
  packageRoot: string;
  dir: string;
  stage: string;
  tsx: string;
  concurrency: number;
}): Promise<void> {
  const casesDir = join(options.packageRoot, 'cases', options.stage);
  const names = (await readdir(casesDir)).filter((n) => n.endsWith('.json')).sort();
  const failed: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < names.length; i = next++) {
      const name = names[i] as string;
      const args = ['--import', options.tsx, driverEntry(), 'dispatch', join(casesDir, name)];
      const { stdout } = await runCommand(process.execPath, args, { cwd: options.dir });
      const snapshot = JSON.parse(
        await readFile(join(options.packageRoot, 'snapshots', options.stage, name), 'utf8'),
      ) as unknown;
      if (!isDeepStrictEqual(JSON.parse(stdout), snapshot)) failed.push(name);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  if (failed.length > 0) throw new Error(`bench: per-process results differ from the snapshots: ${failed.join(', ')}`);
}
