// What a case leaves running when it ends: the processes its calls started below the driver (a command sent to the
// background, a child spawned detached and never waited for) that are still alive once its results are known. The
// driver kills them before it prints the case's results, so they cannot burn CPU through the cases after it (in
// this process, and beside it in a class run). The driver knows exactly where one case ends and the next begins;
// the grader, reading lines that arrive in batches, does not. Code that tampers with the driver (it runs in the
// same process) can keep this from happening: the grader's CPU budget per case (program-machine.ts) still bounds
// what is left running then.
import { descendantsOf, readStat } from '../process-table.ts';

// How many times a kill looks again for processes started while it was stopping the others.
const ROUNDS = 8;
// How long the driver waits for the killed to be gone (a killed process is torn down once the kernel schedules it),
// so that the next case starts with none of them running.
export const GONE_WITHIN_MS = 1000;

// The processes below the driver now: what runs before its first case (the tsx transform service, started as the
// student's code loaded), which no case's end kills.
export function processesBelow(): ReadonlySet<number> {
  return new Set(descendantsOf(process.pid));
}

// What a case's end found: how many processes it killed, and those it left running (the ones of `before` still
// there), which are what runs before the next case.
export type CaseEnd = { killed: number; running: ReadonlySet<number> };

// Kills every process below the driver that is not in `before`. Each is stopped first (SIGSTOP), so that none can
// start another while the rest are found; then all are killed (SIGKILL). The first look's survivors of `before` are
// the next case's `before`. So /proc is read once a case, not again as the next one starts (a reading opens a file for
// every thread of the tree, a dozen for Node alone), and a process started between two cases (by a timer the first
// one set) counts as the next case's, and is killed as that one ends.
export function killLeftovers(before: ReadonlySet<number>): CaseEnd {
  const below = descendantsOf(process.pid);
  const running = new Set(below.filter((pid) => before.has(pid)));
  const stopped = new Set<number>();
  let fresh = below.filter((pid) => !before.has(pid));
  for (let round = 0; round < ROUNDS && fresh.length > 0; round += 1) {
    for (const pid of fresh) {
      signal(pid, 'SIGSTOP');
      stopped.add(pid);
    }
    fresh = descendantsOf(process.pid).filter((pid) => !before.has(pid) && !stopped.has(pid));
  }
  for (const pid of stopped) signal(pid, 'SIGKILL');
  const until = performance.now() + GONE_WITHIN_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while ([...stopped].some(stillThere) && performance.now() < until) Atomics.wait(pause, 0, 0, 1);
  return { killed: stopped.size, running };
}

// Not yet gone: neither ended (a zombie, not yet reaped, runs nothing) nor missing.
function stillThere(pid: number): boolean {
  const state = readStat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}
