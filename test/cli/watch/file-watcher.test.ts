import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFiles, type FileWatcher } from '../../../src/cli/watch/file-watcher.ts';
import { watchTargets } from '../../../src/cli/watch/watch-paths.ts';

let root: string;
let course: string;
let watcher: FileWatcher | undefined;
let seen: string[];

// Resolves once `predicate` holds over the events seen so far; fails after a bound rather than hanging.
async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; events seen: ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-file-watcher-'));
  course = join(root, 'course');
  await mkdir(join(course, 'src', 'tools'), { recursive: true });
  await mkdir(join(course, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(course, 'src', 'execute.ts'), 'export {};\n');
  await writeFile(join(course, 'program.ts'), '\n');
  seen = [];
  const targets = watchTargets({ dir: course, packageRoot: join(root, 'pkg'), stage: 'register-tools', tempDirs: [] });
  watcher = await watchFiles({
    roots: [course],
    isIgnored: targets.isIgnored,
    onChange: (path) => seen.push(targets.display(path)),
    onError: (error) => seen.push(`error: ${error.message}`),
  });
});

afterEach(async () => {
  await watcher?.close();
  await rm(root, { recursive: true, force: true });
});

describe('watchFiles', () => {
  it('reports an in-place write of a source file', async () => {
    await writeFile(join(course, 'src', 'execute.ts'), 'export const x = 1;\n');
    await until(() => seen.includes('src/execute.ts'), 'src/execute.ts');
  });

  it('reports a new file in a nested source directory and a change to program.ts', async () => {
    await writeFile(join(course, 'src', 'tools', 'view.ts'), 'export {};\n');
    await writeFile(join(course, 'program.ts'), '// changed\n');
    await until(() => seen.includes('src/tools/view.ts') && seen.includes('program.ts'), 'both files');
  });

  it('reports an atomic save (temp file renamed over the original) as the real file only', async () => {
    await writeFile(join(course, 'src', 'execute.ts.tmp'), 'export const y = 2;\n');
    await rename(join(course, 'src', 'execute.ts.tmp'), join(course, 'src', 'execute.ts'));
    await until(() => seen.includes('src/execute.ts'), 'src/execute.ts');
    expect(seen.filter((p) => p !== 'src/execute.ts')).toEqual([]);
  });

  it('reports a backup-and-recreate save (vim) as the real file only', async () => {
    await rename(join(course, 'src', 'execute.ts'), join(course, 'src', 'execute.ts~'));
    await writeFile(join(course, 'src', 'execute.ts'), 'export const z = 3;\n');
    await rm(join(course, 'src', 'execute.ts~'));
    await until(() => seen.includes('src/execute.ts'), 'src/execute.ts');
    expect(seen.filter((p) => p !== 'src/execute.ts')).toEqual([]);
  });

  it('never reports node_modules, hidden files or files outside the graded entries', async () => {
    await writeFile(join(course, 'node_modules', 'dep', 'index.js'), '1\n');
    await writeFile(join(course, 'src', '.execute.ts.swp'), 'swap\n');
    await writeFile(join(course, 'README.md'), '# notes\n');
    // A sentinel written last: once it is reported, the writes before it have had their chance.
    await writeFile(join(course, 'tsconfig.json'), '{}\n');
    await until(() => seen.includes('tsconfig.json'), 'the sentinel tsconfig.json');
    expect(seen).toEqual(['tsconfig.json']);
  });

  it('reports nothing after close', async () => {
    await watcher?.close();
    watcher = undefined;
    await writeFile(join(course, 'src', 'execute.ts'), 'export const after = 1;\n');
    // A second watcher on the same tree proves the write was observable, and the closed one stayed silent.
    const again: string[] = [];
    const probe = await watchFiles({
      roots: [course],
      isIgnored: () => false,
      onChange: (p) => again.push(p),
      onError: () => {},
    });
    try {
      await writeFile(join(course, 'src', 'execute.ts'), 'export const later = 2;\n');
      await until(() => again.length > 0, 'the probe watcher');
    } finally {
      await probe.close();
    }
    expect(seen).toEqual([]);
  });
});
