// Warm standby processes, for real: each serves exactly one batch and runs the course's code as it is when the
// work arrives (not as it was when the standby started), and closing the pool kills every waiting standby and
// removes its temp dir.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../src/grade/run/run-program.ts';
import { standbyPool } from '../../../src/grade/run/standby-pool.ts';
import { makeCourse, standbysIn, useScratch, REPO } from '../course-fixture.ts';

const READ = join(REPO, 'cases', 'register-tools', 'course-read-seeded-file.json');
const scratch = useScratch();

describe('standbyPool', () => {
  it('hands each standby out once, running the code as saved after it started', async () => {
    const dir = await makeCourse(scratch);
    const pool = standbyPool({ dir, env: process.env, size: 1 });
    try {
      await pool.fill();
      // Saved after the standby started: a standby imports nothing of the course until it is given work.
      const execute = join(dir, 'src', 'execute.ts');
      await writeFile(execute, (await readFile(execute, 'utf8')).replace(/^\s*case 'Read':\n/m, ''));
      const lines: string[] = [];
      const result = await runProgram({ dir, caseFiles: [READ], timeoutMs: 30_000, env: process.env, standbys: pool, onLine: (l) => (lines.push(l.text), 'continue') });
      expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
      expect(JSON.parse(lines[0]!)).toEqual({ results: [{ content: 'unknown tool: Read', is_error: true }] });
      expect(pool.size()).toBe(0);
      expect(await pool.take(dir)).toBeUndefined();
    } finally {
      await pool.close();
    }
  });

  it('gives no standby for another course directory', async () => {
    const dir = await makeCourse(scratch);
    const pool = standbyPool({ dir, env: process.env, size: 1 });
    try {
      await pool.fill();
      expect(await pool.take(join(dir, 'elsewhere'))).toBeUndefined();
      expect(pool.size()).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('renews: every waiting standby is replaced by a fresh one (after a tsconfig.json change)', async () => {
    const dir = await makeCourse(scratch);
    const pool = standbyPool({ dir, env: process.env, size: 1 });
    try {
      await pool.fill();
      const before = await standbysIn(dir);
      await pool.renew();
      const after = await standbysIn(dir);
      expect([before.length, after.length, pool.size()]).toEqual([1, 1, 1]);
      expect(after).not.toEqual(before);
    } finally {
      await pool.close();
    }
  });

  it('kills every waiting standby on close, starts none afterwards, and leaves no temp dir (checked after each test)', async () => {
    const dir = await makeCourse(scratch);
    const pool = standbyPool({ dir, env: process.env, size: 2 });
    await pool.fill();
    expect((await standbysIn(dir)).length).toBe(2);
    await pool.close();
    expect(await standbysIn(dir)).toEqual([]);
    await pool.fill();
    expect([pool.size(), (await standbysIn(dir)).length]).toEqual([0, 0]);
  });
});
