// The workspace snapshot that becomes a live case's seed: what git would track (less .git and node_modules), text
// as text, bytes as base64, links inside the workspace as links, and the caps that keep it a seed a case can carry.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotWorkspace, SNAPSHOT_LIMITS } from '../../../src/record/live/snapshot-workspace.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-snapshot-test-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function files(tree: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(tree)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

describe('snapshotWorkspace', () => {
  it('follows .gitignore files with git precedence and always skips .git and node_modules', async () => {
    await files({
      '.gitignore': '*.log\ndist/\n.env\n',
      '.git/info/exclude': 'scratch.txt\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.env': 'ANTHROPIC_API_KEY=sk-ant-nope\n',
      'app.log': 'noise',
      'dist/app.js': 'built',
      'node_modules/pkg/index.js': 'dep',
      'src/node_modules/nested.js': 'dep',
      'scratch.txt': 'local only',
      'src/a.ts': 'export const a = 1;\n',
      'src/.gitignore': '!keep.log\ngenerated/\n',
      'src/keep.log': 'kept by the nested negation',
      'src/other.log': 'still ignored',
      'src/generated/x.ts': 'generated',
    });
    const snapshot = await snapshotWorkspace(dir);
    expect(snapshot.files).toEqual({
      '.gitignore': '*.log\ndist/\n.env\n',
      'src/.gitignore': '!keep.log\ngenerated/\n',
      'src/a.ts': 'export const a = 1;\n',
      'src/keep.log': 'kept by the nested negation',
    });
    expect(snapshot.omitted).toEqual([]);
  });

  it('keeps text as text, bytes as base64, links inside as links, and leaves out links that lead out', async () => {
    const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]);
    await files({ 'a.txt': 'héllo\n', 'img.png': binary, 'sub/b.txt': 'b' });
    await symlink('sub/b.txt', join(dir, 'rel-link'));
    await symlink(join(dir, 'sub', 'b.txt'), join(dir, 'abs-link'));
    await symlink('/etc/hostname', join(dir, 'out-link'));
    const snapshot = await snapshotWorkspace(dir);
    expect(snapshot.files).toEqual({
      'a.txt': 'héllo\n',
      'abs-link': { symlink: '<sandbox>/sub/b.txt' },
      'img.png': { base64: binary.toString('base64') },
      'rel-link': { symlink: 'sub/b.txt' },
      'sub/b.txt': 'b',
    });
    expect(snapshot.omitted).toEqual([{ path: 'out-link', reason: 'a symlink that leads out of the workspace' }]);
  });

  it('leaves out files over the per-file and total caps, and stops a walk that is too large, saying so', async () => {
    await files({ 'a.txt': 'aaaa', 'b.txt': 'bbbbbbbbbbbb', 'c.txt': 'cccc', 'd.txt': 'dddd' });
    const capped = await snapshotWorkspace(dir, { ...SNAPSHOT_LIMITS, fileBytes: 8, totalBytes: 10 });
    expect(Object.keys(capped.files)).toEqual(['a.txt', 'c.txt']);
    expect(capped.omitted).toEqual([
      { path: 'b.txt', reason: '12 bytes, over the 8-byte cap per file' },
      { path: 'd.txt', reason: 'over the 10-byte cap for the whole snapshot' },
    ]);
    const stopped = await snapshotWorkspace(dir, { ...SNAPSHOT_LIMITS, entries: 2 });
    expect(Object.keys(stopped.files)).toEqual(['a.txt', 'b.txt']);
    expect(stopped.omitted).toEqual([
      { path: 'c.txt', reason: expect.stringMatching(/^the walk stopped after 2 entries/) },
    ]);
  });
});
