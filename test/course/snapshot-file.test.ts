// The snapshot format (sorted keys, two-space JSON, final newline) and its file IO (atomic, rewritten only on
// change, a broken file reported with how to regenerate it).
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import {
  acceptPending,
  formatSnapshot,
  parseSnapshot,
  pendingNames,
  rejectPending,
  readSnapshot,
  snapshotNames,
  sortKeys,
  writeIfChanged,
} from '../../src/course/snapshot-file.ts';
import { packageRoot, snapshotsDir } from '../../src/course/stages.ts';

describe('formatSnapshot', () => {
  it.each([
    [
      'keys sorted, two spaces, final newline',
      [{ is_error: false, exit_code: 0, content: 'hi\n' }],
      '{\n  "results": [\n    {\n      "content": "hi\\n",\n      "exit_code": 0,\n      "is_error": false\n    }\n  ]\n}\n',
    ],
    ['no results', [], '{\n  "results": []\n}\n'],
    [
      'array order kept',
      [{ content: 'b' }, { content: 'a' }],
      '{\n  "results": [\n    {\n      "content": "b"\n    },\n    {\n      "content": "a"\n    }\n  ]\n}\n',
    ],
  ])('%s', (_, results, text) => {
    expect(formatSnapshot({ results })).toBe(text);
  });

  it('sorts nested keys by code unit and keeps a key named __proto__ as a key', () => {
    const value = JSON.parse('{"b":{"z":1,"__proto__":2,"Z":3},"a":[{"y":1,"x":2}]}') as unknown;
    expect(JSON.stringify(sortKeys(value))).toBe('{"a":[{"x":2,"y":1}],"b":{"Z":3,"__proto__":2,"z":1}}');
  });

  it('reproduces every committed snapshot byte for byte', () => {
    const dir = snapshotsDir(packageRoot(), 'register-tools');
    const differing = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .filter((f) => {
        const text = readFileSync(join(dir, f), 'utf8');
        const parsed = parseSnapshot(text);
        return typeof parsed === 'string' || formatSnapshot(parsed) !== text;
      });
    expect(differing).toEqual([]);
  });
});

describe('parseSnapshot', () => {
  it.each([
    ['{', "not valid JSON (Expected property name or '}' in JSON at position 1)"],
    ['[]', 'must be an object with a "results" array'],
    ['{"results":{}}', 'must be an object with a "results" array'],
    ['null', 'must be an object with a "results" array'],
  ])('explains why %s is not a snapshot', (text, reason) => {
    expect(parseSnapshot(text)).toBe(reason);
  });
});

describe('snapshot files', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'theinference-snapshot-file-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads a missing snapshot as null', async () => {
    expect(await readSnapshot(join(dir, 'none.json'))).toBeNull();
  });

  it('reads a snapshot back', async () => {
    await writeFile(join(dir, 'a.json'), formatSnapshot({ results: [{ content: 'A' }] }));
    expect(await readSnapshot(join(dir, 'a.json'))).toEqual({ results: [{ content: 'A' }] });
  });

  it('refuses a broken snapshot, saying how to regenerate it', async () => {
    await writeFile(join(dir, 'broken.json'), '{"result": []}');
    const error = await readSnapshot(join(dir, 'broken.json')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('BAD_SNAPSHOT');
    expect((error as HarnessError).message).toContain('must be an object with a "results" array');
    expect((error as HarnessError).message).toContain('theinference snapshot --stage <stage> --case broken');
  });

  it('writes a new file (creating its directory), leaves an equal one untouched, replaces a different one', async () => {
    const file = join(dir, 'stage', 'a.json');
    expect(await writeIfChanged(file, 'one\n')).toBe('added');
    const past = new Date('2001-01-01T00:00:00Z');
    await utimes(file, past, past);
    expect(await writeIfChanged(file, 'one\n')).toBe('unchanged');
    expect((await stat(file)).mtime).toEqual(past);
    expect(await writeIfChanged(file, 'two\n')).toBe('changed');
    expect(await readFile(file, 'utf8')).toBe('two\n');
    expect(await readdir(join(dir, 'stage'))).toEqual(['a.json']);
  });

  it('lists snapshot names, skipping hidden and non-JSON files', async () => {
    await mkdir(join(dir, 'snapshots', 'demo'), { recursive: true });
    for (const f of ['b.json', 'a.json', '.a.json.123.tmp', '.hidden.json', 'notes.md']) {
      await writeFile(join(dir, 'snapshots', 'demo', f), '');
    }
    expect(await snapshotNames(dir, 'demo')).toEqual(['a', 'b']);
    expect(await snapshotNames(dir, 'no-such-stage')).toEqual([]);
  });

  it('lists pending snapshots apart from snapshots', async () => {
    await mkdir(join(dir, 'snapshots', 'demo'), { recursive: true });
    for (const f of ['a.json', 'a.json.new', 'c.json.new', '.c.json.new.123.tmp']) {
      await writeFile(join(dir, 'snapshots', 'demo', f), '');
    }
    expect(await snapshotNames(dir, 'demo')).toEqual(['a']);
    expect(await pendingNames(dir, 'demo')).toEqual(['a', 'c']);
  });

  it('accepts a pending snapshot by renaming it over the snapshot, and rejects one by removing it', async () => {
    const stage = join(dir, 'snapshots', 'demo');
    await mkdir(stage, { recursive: true });
    const [old, now] = [formatSnapshot({ results: [{ content: 'old' }] }), formatSnapshot({ results: [] })];
    await writeFile(join(stage, 'a.json'), old);
    await writeFile(join(stage, 'a.json.new'), now);
    await writeFile(join(stage, 'b.json'), old);
    await writeFile(join(stage, 'b.json.new'), now);
    await acceptPending(dir, 'demo', 'a');
    await rejectPending(dir, 'demo', 'b');
    expect((await readdir(stage)).sort()).toEqual(['a.json', 'b.json']);
    expect([await readFile(join(stage, 'a.json'), 'utf8'), await readFile(join(stage, 'b.json'), 'utf8')]).toEqual([
      now,
      old,
    ]);
  });

  it('refuses to accept a pending file that is not a snapshot, leaving both files as they are', async () => {
    const stage = join(dir, 'snapshots', 'demo');
    await mkdir(stage, { recursive: true });
    await writeFile(join(stage, 'a.json'), 'old');
    await writeFile(join(stage, 'a.json.new'), '{"results": [');
    const error = await acceptPending(dir, 'demo', 'a').catch((e: unknown) => e);
    expect((error as HarnessError).message).toMatch(/^snapshots\/demo\/a\.json\.new: not valid JSON .*Reject it/);
    expect([await readFile(join(stage, 'a.json'), 'utf8'), await readFile(join(stage, 'a.json.new'), 'utf8')]).toEqual([
      'old',
      '{"results": [',
    ]);
  });
});
