// A snapshot pending review (`*.json.new`) is never staged: the repository's .gitignore and the one `init` writes
// leave it out, so `git add snapshots/` after a partial review stages the accepted snapshots alone.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from './support/reference-course.ts';

describe('pending snapshots are ignored by git', () => {
  it.each([['.gitignore'], ['course-template/gitignore']])(
    '%s: git add snapshots/ stages no *.json.new',
    async (file) => {
      const dir = await mkdtemp(join(tmpdir(), 'theinference-gitignore-'));
      try {
        const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
        git('init', '-q');
        await writeFile(join(dir, '.gitignore'), await readFile(join(REPO, file), 'utf8'));
        await mkdir(join(dir, 'snapshots', 'register-tools'), { recursive: true });
        await writeFile(join(dir, 'snapshots', 'register-tools', 'a.json'), '{}\n');
        await writeFile(join(dir, 'snapshots', 'register-tools', 'b.json.new'), '{}\n');
        git('add', 'snapshots/');
        expect(git('diff', '--cached', '--name-only').trim().split('\n')).toEqual(['snapshots/register-tools/a.json']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
