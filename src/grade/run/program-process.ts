// Starts one program process the way every one is started: `node --import <tsx> …` in the course directory,
// detached in a process group of its own, with a TMPDIR of its own (removed with it) that holds a link to the
// grader's tsx transform cache, so that only files changed since the last process are compiled again.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, realpath, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { trackGroup, untrackDir } from './live-groups.ts';
import { removeTree } from './remove-tree.ts';

// A started program process: its child, the spellings of its TMPDIR (hidden from output), and its disposal.
export type ProgramProcess = {
  child: ChildProcess;
  tmpSpellings: string[];
  // Settles only when spawning failed (an 'error' before any pid): why the process never ran.
  spawnFailure: Promise<Error>;
  // Kills the process group and removes the temp dir; safe to call more than once.
  dispose: () => Promise<void>;
};

// What to start: the course dir, the environment, and either program.ts's arguments or a standby bootstrap.
export type ProcessStart = { dir: string; env: NodeJS.ProcessEnv; args: string[]; stdin: 'ignore' | 'pipe' };

// The file URL of the package's own tsx ESM loader: a student's directory needs no tsx of its own.
export function tsxLoaderUrl(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
}

// tsx keeps its transform cache in `<os.tmpdir()>/tsx-<euid>` (tsx 4: dist/temporary-directory), keyed by the
// content of each file, so processes can share it safely.
export function tsxCacheName(): string {
  return `tsx-${process.geteuid?.() ?? userInfo().username}`;
}

// Starts the process; resolves once it is spawned (or failed to spawn) and tracked for the exit hook.
export async function startProcess(start: ProcessStart): Promise<ProgramProcess> {
  const runDir = await mkdtemp(join(tmpdir(), 'theinference-run-'));
  let disposed: Promise<void> | undefined;
  let child: ChildProcess | undefined;
  const dispose = (): Promise<void> =>
    (disposed ??= (async () => {
      if (child?.pid !== undefined) killGroup(child.pid);
      untrackDir(runDir);
      await removeTree(runDir);
    })());
  try {
    const tmp = join(runDir, 'tmp');
    await mkdir(tmp);
    const env = { ...start.env, TMPDIR: tmp };
    // A caller who set TSX_DISABLE_CACHE asked for no cache on disk: honoured, and nothing is linked.
    if (!start.env.TSX_DISABLE_CACHE) await linkTsxCache(tmp);
    const spellings = [await realpath(tmp), tmp];
    child = spawn(process.execPath, ['--import', tsxLoaderUrl(), ...start.args], {
      cwd: start.dir,
      env,
      detached: true,
      stdio: [start.stdin, 'pipe', 'pipe'],
    });
    // An 'error' with no pid (no such cwd, say) means it never ran; any other is a kill that failed, and the
    // 'exit' still comes.
    const spawned = child;
    const spawnFailure = new Promise<Error>((resolve) => {
      spawned.on('error', (error) => {
        if (spawned.pid === undefined) resolve(error);
      });
    });
    child.stdin?.on('error', () => {}); // EPIPE: the process died before reading its work; its exit says why
    if (child.pid !== undefined) trackGroup(child.pid, runDir);
    return { child, tmpSpellings: spellings, spawnFailure, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

// Kills a process group; a group already gone is fine.
export function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

// `<tmp>/tsx-<euid>` → the grader's own `<os.tmpdir()>/tsx-<euid>`, created if missing. Removing `tmp` removes
// the link and never the cache (rm does not follow links).
async function linkTsxCache(tmp: string): Promise<void> {
  const shared = join(tmpdir(), tsxCacheName());
  await mkdir(shared, { recursive: true, mode: 0o700 });
  await symlink(shared, join(tmp, tsxCacheName()), 'dir');
}
