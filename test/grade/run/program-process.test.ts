// The tsx transform cache shared by program processes, for real: each process's own TMPDIR holds a link to the
// grader's cache while it runs, the cache fills and outlives the process, and a caller's TSX_DISABLE_CACHE is
// honoured (no link, no cache written).
import { lstat, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsxCacheName } from '../../../src/grade/run/program-process.ts';
import { runProgram } from '../../../src/grade/run/run-program.ts';
import { makeCourse, useScratch } from '../course-fixture.ts';

const scratch = useScratch();

// Runs one case whose Bash call reports where the process's `$TMPDIR/tsx-<euid>` leads (the sandbox lives in
// that TMPDIR; Bash itself gets a fixed environment), and returns that.
async function cacheLinkSeenByProgram(env: NodeJS.ProcessEnv): Promise<unknown> {
  const dir = await makeCourse(scratch);
  const file = join(scratch.root, 'readlink.json');
  const command = `readlink "<sandbox>/../${tsxCacheName()}" || echo no link`;
  await writeFile(file, JSON.stringify({ description: 'where the cache link leads', calls: [{ tool: 'Bash', input: { command } }] }));
  const lines: string[] = [];
  const result = await runProgram({ dir, caseFiles: [file], timeoutMs: 30_000, env, onLine: (l) => (lines.push(l.text), 'continue') });
  expect(result.end).toEqual({ kind: 'exited', code: 0, signal: null });
  return (JSON.parse(lines[0]!) as { results: { content: string }[] }).results[0]?.content;
}

describe('the shared tsx cache', () => {
  it("links the process's TMPDIR to the grader's cache while it runs; the cache is filled and outlives it", async () => {
    const shared = join(scratch.tmp, tsxCacheName());
    expect(await cacheLinkSeenByProgram(process.env)).toBe(`${shared}\n`);
    expect((await lstat(shared)).isDirectory()).toBe(true);
    expect((await readdir(shared)).length).toBeGreaterThan(0);
  });

  it('honours a TSX_DISABLE_CACHE the caller set: no link, nothing written to the cache', async () => {
    const shared = join(scratch.tmp, tsxCacheName());
    const before = await readdir(shared).catch(() => []);
    expect(await cacheLinkSeenByProgram({ ...process.env, TSX_DISABLE_CACHE: '1' })).toBe('no link\n');
    expect(await readdir(shared).catch(() => [])).toEqual(before);
  });
});
