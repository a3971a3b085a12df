// Warm standby program processes for watch mode. Starting Node, registering tsx and loading the stage's modules
// takes about 0.5 s a process, and a save changes few of those modules, so watch mode starts them while it waits
// for a save (standby.ts loads afresh only what the save changed). Each is
// taken once (for one batch) and never reused; one that died while waiting is discarded. A run that finds the
// pool empty starts cold processes as before. The pool's processes share one tsx cache (isolation/tsx-cache.ts),
// made for the pool and removed with it.
import { BOOTSTRAP, standbyFiles } from './standby-files.ts';
import { openTsxCache, type TsxCache } from './isolation/tsx-cache.ts';
import { startProcess, type ProgramProcess } from './program-process.ts';
import { driverArgs, driverEntry, driverFiles, driverMode } from '../../modes/driver-files.ts';
import { keepsEvidence, type StandbySource } from './run-program.ts';

// A pool of standbys for one course directory and environment.
export type StandbyPool = StandbySource & {
  // Starts standbys until `size` are waiting (or starting); resolves once they are spawned.
  fill: () => Promise<void>;
  // Replaces every waiting standby with a fresh one: tsx read tsconfig.json when it registered, so a standby
  // started before a change to it would compile with the old settings.
  renew: () => Promise<void>;
  // How many are waiting or starting.
  size: () => number;
  // Kills every standby, removes its temp dir and the pool's tsx cache; the pool starts no more afterwards.
  // Resolves to the warnings of what could not be removed.
  close: () => Promise<string[]>;
};

// A pool that keeps up to `size` standbys for `dir`, each started with `env` (plus its own TMPDIR), in the sandbox
// or not as `sandbox` says (a promise when that is still being found out: none starts before it settles).
export function standbyPool(options: {
  dir: string;
  env: NodeJS.ProcessEnv;
  size: number;
  sandbox: boolean | Promise<boolean>;
  // The stage its standbys run once their work arrives, in its mode on the module its row names (none: the
  // default mode's first stage).
  stage?: string;
  // What each standby imports while it waits, as the stage names it (its `warm`: packages as the driver imports them, course modules from the course directory).
  warm?: readonly string[];
}): StandbyPool {
  const ready: ProgramProcess[] = [];
  const starting = new Set<Promise<void>>();
  const disposing = new Set<Promise<unknown>>();
  const warnings: string[] = [];
  const discard = (proc: ProgramProcess): void => {
    const gone = proc
      .dispose()
      .then((warning) => warning !== undefined && warnings.push(warning))
      .finally(() => disposing.delete(gone));
    disposing.add(gone);
  };
  const sandbox = Promise.resolve(options.sandbox);
  sandbox.catch(() => {}); // a pool that must not start (no sandbox where one is required): each start says so
  let sandboxed: boolean | undefined;
  let cache: Promise<TsxCache> | undefined;
  let closed = false;

  const startOne = (): Promise<void> => {
    const started = (async () => {
      sandboxed = await sandbox;
      if (closed) return;
      cache ??= openTsxCache(options.env, sandboxed);
      const { dir: tsxCache } = await cache;
      if (closed) return;
      const proc = await startProcess({
        dir: options.dir,
        env: options.env,
        args: [BOOTSTRAP, driverEntry(), ...driverArgs(options.stage), ...(options.warm ?? [])],
        stdin: 'pipe',
        sandbox: sandboxed,
        tsxCache,
        files: [...standbyFiles(), ...driverFiles()],
        ...(keepsEvidence(driverMode(options.stage)) ? { channel: true } : {}),
      });
      if (closed) discard(proc);
      else ready.push(proc);
    })().catch(() => {}); // no temp dir, say: runs then start cold processes, which report the problem
    const tracked = started.finally(() => starting.delete(tracked));
    starting.add(tracked);
    return tracked;
  };

  return {
    fill: async () => {
      const wanted = closed ? 0 : options.size - ready.length - starting.size;
      await Promise.all(Array.from({ length: Math.max(0, wanted) }, startOne));
    },
    renew: async () => {
      for (const proc of ready.splice(0)) discard(proc);
      await Promise.all(Array.from({ length: closed ? 0 : Math.max(0, options.size - starting.size) }, startOne));
      await Promise.all([...disposing]);
    },
    size: () => ready.length + starting.size,
    take: async (dir, wantSandbox, wantStage) => {
      if (dir !== options.dir || driverArgs(wantStage).join(' ') !== driverArgs(options.stage).join(' '))
        return undefined;
      // One still starting (a fill just before this run) is further along than a cold start would be.
      while (ready.length === 0 && starting.size > 0) await Promise.race(starting);
      if (sandboxed !== wantSandbox) return undefined;
      for (let proc = ready.shift(); proc !== undefined; proc = ready.shift()) {
        const alive = proc.child.pid !== undefined && proc.child.exitCode === null && proc.child.signalCode === null;
        if (alive) return proc;
        discard(proc);
      }
      return undefined;
    },
    close: async () => {
      closed = true;
      await Promise.all([...starting]);
      for (const proc of ready.splice(0)) discard(proc);
      await Promise.all([...disposing]);
      const removed = await (await cache?.catch(() => undefined))?.close();
      return removed === undefined ? warnings.splice(0) : [...warnings.splice(0), removed];
    },
  };
}
