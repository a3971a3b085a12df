// The cases a save most likely breaks, on the real register-tools cases: the ones a watch-mode run starts with.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { caseFileNames, casesDir, snapshotsDir } from '../../src/course/stages.ts';
import { casesReaching, keepCaseWords } from '../../src/grade/cases-reaching.ts';
import { REPO } from '../support/reference-course.ts';

const STAGE = 'register-tools';
const execute = join(REPO, 'src', 'execute.ts');

// The cases whose calls name `tool`.
async function callingTool(tool: string): Promise<string[]> {
  const names: string[] = [];
  for (const file of await caseFileNames(REPO, STAGE)) {
    const data = JSON.parse(await readFile(join(casesDir(REPO, STAGE), file), 'utf8')) as { calls: { tool: string }[] };
    if (data.calls.some((c) => c.tool === tool)) names.push(file.slice(0, -'.json'.length));
  }
  return names;
}

describe('casesReaching', () => {
  it("puts every case that calls Read among those run first when a save drops the Read alias, and no case of another tool's alone", async () => {
    const before = await readFile(execute, 'utf8');
    const after = before.replace(/^\s*case 'Read':\n/m, '');
    expect(after).not.toBe(before);
    const first = await casesReaching(REPO, STAGE, { paths: [execute], changes: [{ path: execute, before, after }] });
    const reading = await callingTool('Read');
    expect(reading.length).toBeGreaterThan(0);
    expect(first).toEqual(expect.arrayContaining(reading));
    const globOnly = (await callingTool('Glob')).filter((name) => !reading.includes(name) && !name.includes('read'));
    expect(globOnly.length).toBeGreaterThan(0);
    expect(first).not.toEqual(expect.arrayContaining(globOnly));
    expect(first.length).toBeLessThan((await caseFileNames(REPO, STAGE)).length / 2);
  });

  it('puts a case whose case or snapshot file was saved first of all', async () => {
    const before = await readFile(execute, 'utf8');
    const after = before.replace(/^\s*case 'Read':\n/m, '');
    const paths = [join(snapshotsDir(REPO, STAGE), 'echo-returns-text.json'), execute];
    const first = await casesReaching(REPO, STAGE, { paths, changes: [{ path: execute, before, after }] });
    expect(first[0]).toBe('echo-returns-text');
    const edited = await casesReaching(REPO, STAGE, {
      paths: [join(casesDir(REPO, STAGE), 'bash-environment.json')],
      changes: [],
    });
    expect(edited).toEqual(['bash-environment']);
  });

  it("names nothing for a save that changed no line, nor for another stage's case file", async () => {
    const text = await readFile(execute, 'utf8');
    const other = join(casesDir(REPO, 'agent-loop'), 'x.json');
    expect(
      await casesReaching(REPO, STAGE, {
        paths: [execute, other],
        changes: [{ path: execute, before: text, after: text }],
      }),
    ).toEqual([]);
  });
});

describe('keepCaseWords', () => {
  it('reads every case once, and again only a case file a save edited, added or removed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'theinference-case-words-'));
    try {
      const dir = casesDir(root, STAGE);
      await mkdir(dir, { recursive: true });
      const write = (name: string, tool: string) =>
        writeFile(join(dir, `${name}.json`), JSON.stringify({ calls: [{ tool, input: {} }] }));
      await write('a', 'Read');
      await write('b', 'Glob');
      const caseWords = keepCaseWords(root, STAGE);
      const named = async (edited: string[]) =>
        Object.fromEntries((await caseWords(edited)).map((c) => [c.name, c.words.has('read')]));
      expect(await named([])).toEqual({ a: true, b: false });
      // Changed on disk without a save naming it: the words kept stand.
      await write('b', 'Read');
      expect(await named([])).toEqual({ a: true, b: false });
      expect(await named(['b'])).toEqual({ a: true, b: true });
      await write('c', 'Read');
      await rm(join(dir, 'a.json'));
      expect(await named(['a', 'c'])).toEqual({ b: true, c: true });
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
