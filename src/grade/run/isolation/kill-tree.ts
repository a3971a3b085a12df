// Without the sandbox, what a program started is found through /proc before it is killed: its descendants (the
// reference bash runs each command in a process group of its own, which a kill aimed at the program's group does
// not reach) and their process groups. Linux only; elsewhere the program's group alone is killed.
import { descendsFrom, readProcessTable, readStat } from '../../../process-table.ts';

// Rounds of look-and-freeze: each freezes (SIGSTOP) what it finds, so nothing forks behind the next look.
const MAX_ROUNDS = 10;

// Kills `root`, every process descended from it and their process groups; returns the pids it signalled.
// Synchronous, so the grader's exit hook can use it. A process that left both the tree (its parent died first)
// and the group (setsid) is not found: only the sandbox's PID namespace reaches that.
export function killTree(root: number): number[] {
  const found = new Set<number>([root]);
  signal(root, 'SIGSTOP');
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const table = readProcessTable();
    const fresh = [...table.keys()].filter((pid) => !found.has(pid) && descendsFrom(pid, found, table));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      found.add(pid);
      signal(pid, 'SIGSTOP');
    }
  }
  const table = readProcessTable();
  const groups = new Set<number>([root]);
  for (const pid of found) {
    const group = table.get(pid)?.pgrp;
    if (group !== undefined && group > 1 && group !== process.pid) groups.add(group);
  }
  for (const group of groups) signal(-group, 'SIGKILL');
  for (const pid of found) signal(pid, 'SIGKILL');
  return [...found];
}

// Whether every pid in `pids` is gone or a zombie (dead, not yet reaped).
export function allDead(pids: number[]): boolean {
  return pids.every((pid) => {
    const state = readStat(pid)?.state;
    return state === undefined || state === 'Z' || state === 'X';
  });
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // ESRCH: already gone; EPERM: not ours to stop.
  }
}
