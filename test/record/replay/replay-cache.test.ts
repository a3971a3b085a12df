// The replay cache: what a dry run found, kept in the course directory for the real run right after it.
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Built } from '../../../src/record/replay/build-cases.ts';
import {
  readCachedBuild,
  referenceIdentity,
  replayCacheDir,
  replayKey,
  writeCachedBuild,
} from '../../../src/record/replay/replay-cache.ts';
import { REPO } from '../../support/reference-course.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-replay-cache-test-'));
  await mkdir(join(dir, 'node_modules'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const built: Built = {
  drafts: [],
  dropped: new Map([[3, 'did not reproduce: Bash: a different exit code']]),
  divergences: new Map([
    [3, { ok: false, reason: 'Bash: a different exit code', recorded: 'exit 0', replayed: 'exit 127' }],
  ]),
  replayed: new Set([1, 3]),
};

describe('the replay cache', () => {
  it('gives back what was kept under a key, Maps and Sets included', async () => {
    await writeCachedBuild(dir, 'k1', built);
    expect(await readCachedBuild(dir, 'k1')).toEqual(built);
    expect(await readCachedBuild(dir, 'k2')).toBeUndefined();
  });

  it('keys by every input: another option, pattern or reference is another replay', () => {
    const base = { transcript: { calls: [1] }, bash: 'reproducible', patterns: [/a/] };
    expect(replayKey(base)).toBe(replayKey({ ...base }));
    expect(replayKey({ ...base, bash: 'keep' })).not.toBe(replayKey(base));
    expect(replayKey({ ...base, patterns: [/b/] })).not.toBe(replayKey(base));
    expect(replayKey({ ...base, transcript: { calls: [2] } })).not.toBe(replayKey(base));
  });

  it("hashes the reference's sources", async () => {
    expect(await referenceIdentity(REPO)).toMatch(/^[0-9a-f]{64}$/);
    expect(await referenceIdentity(dir)).not.toBe(await referenceIdentity(REPO));
  });

  it('keeps nothing in a directory without node_modules/: a dry run there writes nothing', async () => {
    await rm(join(dir, 'node_modules'), { recursive: true });
    await writeCachedBuild(dir, 'k1', built);
    expect(await readdir(dir)).toEqual([]);
  });

  it('reads a damaged entry as none', async () => {
    await writeCachedBuild(dir, 'k1', built);
    await writeFile(join(replayCacheDir(dir), 'k1.json'), '{"drafts": [');
    expect(await readCachedBuild(dir, 'k1')).toBeUndefined();
  });

  it('keeps the newest 20 replays', async () => {
    for (let i = 0; i < 23; i++) await writeCachedBuild(dir, `k${String(i).padStart(2, '0')}`, built);
    const kept = await readdir(replayCacheDir(dir));
    expect(kept).toHaveLength(20);
    expect(kept).toContain('k22.json');
  });
});
