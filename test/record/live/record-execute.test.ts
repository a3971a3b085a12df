// recordExecute, the library API for agents written in the course: a drop-in execute that records every call and
// its result, whose finish() writes a case seeded with the workspace as it was when recording began, graded green.
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';
import { makeExecute } from '../../../src/execute.ts';
import { recordExecute } from '../../../src/record/live/record-execute.ts';
import { Tools } from '../../../src/tools/index.ts';
import { REPO, useScratch } from '../../grade/course-fixture.ts';
import { gradeRecorded } from '../../support/grade-recorded.ts';

const STAGE = 'register-tools';
const scratch = useScratch();

async function setUp(): Promise<{ workspace: string; dir: string }> {
  const workspace = await mkdtemp(join(scratch.root, 'ws-'));
  await writeFile(join(workspace, 'greet.ts'), 'export const greeting = "hello";\n');
  await mkdir(join(workspace, 'src'));
  await writeFile(join(workspace, 'src', 'util.ts'), 'export const twice = (s: string) => s + s;\n');
  const dir = await mkdtemp(join(scratch.root, 'courses', 'course-'));
  await mkdir(join(dir, 'cases'));
  await cp(join(REPO, 'cases', 'case.schema.json'), join(dir, 'cases', 'case.schema.json'));
  return { workspace, dir };
}

describe('recordExecute', () => {
  it('is transparent, records every call in order, and writes a green case seeded as the workspace was at the start', async () => {
    const { workspace, dir } = await setUp();
    const plain = makeExecute(new Tools(workspace));
    const execute = await recordExecute(makeExecute(new Tools(workspace)), {
      workspace,
      stage: STAGE,
      dir,
      name: 'recorded-execute-demo',
    });

    const read = await execute('Read', { path: 'greet.ts' });
    expect(read).toEqual({ content: '1: export const greeting = "hello";' });
    await execute('Edit', { path: join(workspace, 'greet.ts'), old_str: 'hello', new_str: 'goodbye' });
    // Parallel calls, as a model's turn makes them.
    const [glob, grep] = await Promise.all([
      execute('Glob', { pattern: '**/*.ts' }),
      execute('grep', { pattern: 'goodbye' }),
    ]);
    expect(glob).toEqual(await plain('Glob', { pattern: '**/*.ts' }));
    expect(grep).toEqual(await plain('grep', { pattern: 'goodbye' }));
    await execute('Write', { path: 'notes.md', file_text: '# Notes\n' });
    const missing = await execute('Read', { path: 'nope.ts' });
    expect(missing.is_error).toBe(true);
    expect(execute.calls.map((c) => c.name)).toEqual(['Read', 'Edit', 'Glob', 'grep', 'Write', 'Read']);

    const outcome = await execute.finish();
    expect(outcome.refused).toEqual([]);
    expect(outcome.cases.map((c) => [c.name, c.status])).toEqual([['recorded-execute-demo', 'added']]);
    expect(outcome.report).toContain('6 seen, 6 mapped, 6 replayed, 6 kept in 1 case');
    const text = await readFile(join(dir, 'cases', STAGE, 'recorded-execute-demo.json'), 'utf8');
    const data = JSON.parse(text) as DispatchCaseData;
    expect(data.calls.map((c) => c.tool)).toEqual(['Read', 'Edit', 'Glob', 'grep', 'Write', 'Read']);
    expect(data.calls[1]?.input).toEqual({ path: '<sandbox>/greet.ts', old_str: 'hello', new_str: 'goodbye' });
    expect(data.files?.['greet.ts']).toBe('export const greeting = "hello";\n');
    expect(text).not.toContain(workspace);

    expect(await gradeRecorded(scratch, dir, STAGE)).toEqual(['recorded-execute-demo: pass']);
  });

  it('passes a throw through to the agent and records it; calls after finish() run unrecorded', async () => {
    const { workspace, dir } = await setUp();
    const failing = async (name: string, _input: unknown): Promise<{ content: string }> => {
      if (name === 'boom') throw new TypeError('no such tool');
      return { content: 'ok' };
    };
    const execute = await recordExecute(failing, { workspace, stage: STAGE, dir, dryRun: true });
    await expect(execute('boom', {})).rejects.toThrow('no such tool');
    expect(execute.calls[0]?.result).toEqual({ content: 'TypeError: no such tool', isError: true, line: 1 });
    await execute.finish();
    expect(await execute('echo', { text: 'later' })).toEqual({ content: 'ok' });
    expect(execute.calls).toHaveLength(1);
  });

  it('takes the seed when it starts: a file changed afterwards is seeded as it was', async () => {
    const { workspace, dir } = await setUp();
    const execute = await recordExecute(makeExecute(new Tools(workspace)), {
      workspace,
      stage: STAGE,
      dir,
      name: 'recorded-seed-at-start',
      dryRun: true,
    });
    await writeFile(join(workspace, 'src', 'util.ts'), 'changed behind the recorder\n');
    await execute('Glob', { pattern: 'src/*.ts' });
    const outcome = await execute.finish();
    expect(outcome.cases[0]?.data.files).toEqual({ 'src/util.ts': 'export const twice = (s: string) => s + s;\n' });
  });
});
