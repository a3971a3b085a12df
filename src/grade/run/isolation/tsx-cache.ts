// The tsx transform cache program processes compile through. tsx keeps it in `<TMPDIR>/tsx-<euid>`, keyed by each
// file's content and path; a warm one saves a program 70–140 ms of compiling at every start. A program can write
// its cache, so whatever it writes there must neither reach anyone else nor outlive its command: not the grader
// (which, run from its sources, has its own `<os.tmpdir()>/tsx-<euid>`), not the reference (`snapshot` makes one of
// its own), not another submission, not the next run. So each command makes its own, `theinference-tsx-<random>`
// in the grader's temp dir, shared by its processes (a one-off run's, a watch session's across its runs) and removed
// with it. That holds for processes run with `--isolation off`; a sandboxed one compiles into a cache in its own
// tmpfs instead, gone with it, since a directory shared through the host would let a program fill the host's disk
// (program-process.ts).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { holdUntilExit, releaseAtExit } from '../live-groups.ts';
import { removeTree } from '../remove-tree.ts';

// A cache directory and what to do when its owner is done with it (a warning when something could not be removed).
// `dir` is undefined when there is none: for sandboxed processes, which never see a host directory, and when the
// caller's environment sets TSX_DISABLE_CACHE (no cache at all, as tsx itself would do).
export type TsxCache = { dir: string | undefined; close: () => Promise<string | undefined> };

const PREFIX = 'theinference-tsx-';

// The name tsx gives its cache directory inside `os.tmpdir()` (tsx 4: dist/temporary-directory).
export function tsxCacheName(): string {
  return `tsx-${process.geteuid?.() ?? userInfo().username}`;
}

// A fresh, empty cache for one command whose processes run outside the sandbox (`sandbox`: they run in it, and
// compile into their own tmpfs), removed by `close` (or by the exit hook, if the grader exits first).
export async function openTsxCache(env: NodeJS.ProcessEnv, sandbox: boolean): Promise<TsxCache> {
  if (sandbox || env.TSX_DISABLE_CACHE) return { dir: undefined, close: async () => undefined };
  const dir = await mkdtemp(join(tmpdir(), PREFIX));
  const key = {};
  holdUntilExit(key, () => {}, dir);
  let closed: Promise<string | undefined> | undefined;
  return {
    dir,
    close: () =>
      (closed ??= removeTree(dir).then((warning) => {
        releaseAtExit(key);
        return warning;
      })),
  };
}
