// Warm standby processes, for real: each serves exactly one batch and runs the course's code as it is when the
// work arrives (not as it was when the standby started or warmed up), and closing the pool kills every waiting standby and
// removes its temp dir.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../../../src/grade/run/run-program.ts';
import { stageForRun } from '../../../src/grade/run/isolation/stage-submission.ts';
import { standbyPool, type StandbyPool } from '../../../src/grade/run/standby-pool.ts';
import { stageOf } from '../../../src/course/stages.ts';
import { CONFINEMENT, SANDBOX } from '../../support/isolation.ts';
import { makeCourse, standbysIn, useScratch, REPO } from '../course-fixture.ts';

const READ = JSON.stringify(
  JSON.parse(await readFile(join(REPO, 'cases', 'register-tools', 'course-read-seeded-file.json'), 'utf8')),
);
const scratch = useScratch();
const pool = (dir: string, size: number) => standbyPool({ dir, env: process.env, size, sandbox: SANDBOX });

// The READ case run by a program process of `standbys` (a standby when it has one): its lines and its end.
async function readCase(dir: string, standbys: StandbyPool) {
  const lines: string[] = [];
  const result = await runProgram({
    dir,
    cases: [READ],
    timeoutMs: 30_000,
    env: process.env,
    confinement: CONFINEMENT,
    standbys,
    onLine: (l) => {
      lines.push(l.text);
      return 'continue';
    },
  });
  return { lines, result };
}

describe('standbyPool', () => {
  it('hands each standby out once, running the code as saved after it started', async () => {
    const dir = await makeCourse(scratch);
    const standbys = pool(dir, 1);
    try {
      await standbys.fill();
      // Saved after the standby started: a standby imports nothing of the course until it is given work.
      const execute = join(dir, 'src', 'execute.ts');
      await writeFile(execute, (await readFile(execute, 'utf8')).replace(/^\s*case 'Read':\n/m, ''));
      // As a run does before it hands out work: the sandbox's copy of the course is made to hold the save.
      const staged = await stageForRun(dir, SANDBOX, REPO);
      const { lines, result } = await readCase(dir, standbys);
      expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
      expect(JSON.parse(lines[0]!)).toEqual({ results: [{ content: 'unknown tool: Read', is_error: true }] });
      expect(standbys.size()).toBe(0);
      expect(await standbys.take(dir, SANDBOX)).toBeUndefined();
      await staged.release();
    } finally {
      await standbys.close();
    }
  });

  it("warms the stage's modules and waits on, and runs a dispatcher saved after it warmed as saved", async () => {
    const dir = await makeCourse(scratch);
    const standbys = standbyPool({
      dir,
      env: process.env,
      size: 1,
      sandbox: SANDBOX,
      warm: stageOf('register-tools')!.warm,
    });
    try {
      await standbys.fill();
      await expect.poll(() => standbysIn(dir).then((pids) => pids.length)).toBe(1);
      const [pid] = await standbysIn(dir);
      // Time to import the tools and the dispatcher (about 0.2 s): a standby whose warming failed would be gone.
      await new Promise((r) => setTimeout(r, 3000));
      expect(await standbysIn(dir)).toEqual([pid]);
      // The student's dispatcher, warmed, then saved: the work runs it as saved.
      const execute = join(dir, 'src', 'execute.ts');
      await writeFile(execute, (await readFile(execute, 'utf8')).replace(/^\s*case 'Read':\n/m, ''));
      const staged = await stageForRun(dir, SANDBOX, REPO);
      const { lines } = await readCase(dir, standbys);
      expect(JSON.parse(lines[0]!)).toEqual({ results: [{ content: 'unknown tool: Read', is_error: true }] });
      expect(standbys.size()).toBe(0);
      await staged.release();
    } finally {
      await standbys.close();
    }
  });

  it('gives no standby for another course directory, nor one confined otherwise', async () => {
    const dir = await makeCourse(scratch);
    const standbys = pool(dir, 1);
    try {
      await standbys.fill();
      expect(await standbys.take(join(dir, 'elsewhere'), SANDBOX)).toBeUndefined();
      expect(await standbys.take(dir, !SANDBOX)).toBeUndefined();
      expect(standbys.size()).toBe(1);
    } finally {
      await standbys.close();
    }
  });

  it('renews: every waiting standby is replaced by a fresh one (after a tsconfig.json change)', async () => {
    const dir = await makeCourse(scratch);
    const standbys = pool(dir, 1);
    try {
      await standbys.fill();
      // Spawned is not yet running: a sandboxed one is still being set up by bubblewrap.
      await expect.poll(() => standbysIn(dir).then((pids) => pids.length)).toBe(1);
      const before = await standbysIn(dir);
      await standbys.renew();
      await expect.poll(() => standbysIn(dir).then((pids) => pids.length === 1 && pids[0] !== before[0])).toBe(true);
      expect(standbys.size()).toBe(1);
    } finally {
      await standbys.close();
    }
  });

  it('kills every waiting standby on close, starts none afterwards, and leaves no temp dir (checked after each test)', async () => {
    const dir = await makeCourse(scratch);
    const standbys = pool(dir, 2);
    await standbys.fill();
    await expect.poll(() => standbysIn(dir).then((pids) => pids.length)).toBe(2);
    await standbys.close();
    expect(await standbysIn(dir)).toEqual([]);
    await standbys.fill();
    expect([standbys.size(), (await standbysIn(dir)).length]).toEqual([0, 0]);
  });
});
