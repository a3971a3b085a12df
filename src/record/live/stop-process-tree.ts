// Stops a process and every process it started, the way an interrupted agent is stopped: a moment to exit by itself
// (it got the terminal's Ctrl-C too), then SIGTERM, then SIGKILL. The tree is found from /proc (Linux) while the
// process runs, so children that outlive it are stopped too.
import { descendsFrom, readProcessTable, readStat } from '../../process-table.ts';

// How long a process has to exit by itself, then after SIGTERM, before it is killed.
export type StopDelays = { graceMs: number; termMs: number };

// Gives the agent a moment to exit after the interrupt it got with us, then SIGTERMs and later SIGKILLs it and every
// process it started (found in /proc while it runs, so children that outlive it are stopped too).
export async function stopTree(pid: number | undefined, exited: () => boolean, delays: StopDelays): Promise<void> {
  if (pid === undefined) return;
  const known = new Set(descendants(pid));
  const refresh = async (): Promise<void> => {
    if (!exited()) for (const child of descendants(pid)) known.add(child);
  };
  await waitUntil(exited, delays.graceMs);
  await refresh();
  signalAll([...(exited() ? [] : [pid]), ...known], 'SIGTERM');
  await waitUntil(() => exited() && [...known].every((p) => !isAlive(p)), delays.termMs);
  await refresh();
  signalAll([...(exited() ? [] : [pid]), ...known].filter(isAlive), 'SIGKILL');
}

async function waitUntil(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end; ) await sleep(25);
}

// A zombie (exited, not yet reaped by its new parent) counts as gone: no signal can reach it.
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  return readStat(pid)?.state !== 'Z';
}

function signalAll(pids: number[], signal: NodeJS.Signals): void {
  for (const pid of new Set(pids)) {
    try {
      process.kill(pid, signal);
    } catch {
      // Gone already.
    }
  }
}

// Every process descending from `root` (not itself), from each process's parent in /proc (Linux).
function descendants(root: number): number[] {
  const table = readProcessTable();
  return [...table.keys()].filter((pid) => pid !== root && descendsFrom(pid, new Set([root]), table));
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
