// The commands that replay the reference, run from a copy of theinference installed as students get it (no
// src/execute.ts): each says plainly where to run it instead (exit 2), before any work.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeInstalledCourse, REPO, useScratch } from '../grade/course-fixture.ts';
import { theinference } from '../grade/run/isolation/hostile-course.ts';

const scratch = useScratch();
const TRANSCRIPTS = join(REPO, 'test', 'fixtures', 'transcripts', 'claude-code-constructed');

describe('an installed copy, without the reference', () => {
  it.each<[string, () => Promise<string[]>]>([
    ['snapshot', async () => ['snapshot', '--stage', 'register-tools']],
    [
      'record',
      async () => {
        const file = (await readdir(TRANSCRIPTS)).find((f) => f.endsWith('.jsonl'))!;
        return ['record', join(TRANSCRIPTS, file), '--stage', 'register-tools', '--dry-run'];
      },
    ],
  ])('%s exits 2, saying where to run it', async (command, args) => {
    const { dir, bin } = await makeInstalledCourse(scratch);
    const run = await theinference(bin, dir, await args());
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(
      `error: \`theinference ${command}\` replays the reference solution (src/execute.ts), which this copy of theinference (${join(dir, 'node_modules', 'theinference')}) does not have`,
    );
    expect(run.stdout).toBe('');
  });
});
