// The tsx transform cache of one command's program processes (a run, a pool of standbys, a snapshot run): they
// share it, so each compiles only what changed since another did, and nothing else ever reads it. Not the
// grader's own `<os.tmpdir()>/tsx-<euid>` (the grader runs from its sources through tsx when dist/ is stale), nor
// one kept between commands: a program can write its cache, so a poisoned entry must not reach the grader, the
// reference, or another course graded on the same machine.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { removeTree } from '../remove-tree.ts';

// A cache directory and its removal (a warning when it could not be removed). `dir` is undefined when the
// caller's environment sets TSX_DISABLE_CACHE: no cache at all, as tsx itself would do.
export type TsxCache = { dir: string | undefined; close: () => Promise<string | undefined> };

// The name tsx gives its cache directory inside `os.tmpdir()` (tsx 4: dist/temporary-directory).
export function tsxCacheName(): string {
  return `tsx-${process.geteuid?.() ?? userInfo().username}`;
}

// Makes a fresh, empty cache directory in the grader's temp dir.
export async function openTsxCache(env: NodeJS.ProcessEnv): Promise<TsxCache> {
  if (env.TSX_DISABLE_CACHE) return { dir: undefined, close: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), 'theinference-tsx-'));
  let closed: Promise<string | undefined> | undefined;
  return { dir, close: () => (closed ??= removeTree(dir)) };
}
