// What a case leaves running is killed as the case ends (src/modes/leftovers.ts). Real processes, since only a real
// process shows a kill: each row starts `sleep`s below this process, as a case's calls would.
import { type ChildProcess, spawn } from 'node:child_process';
import { afterEach, expect, it } from 'vitest';
import { killLeftovers, processesBelow } from '../../src/modes/leftovers.ts';
import { readStat } from '../../src/process-table.ts';

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
});

// Starts `command` below this process; its pid.
function start(command: string, ...args: string[]): number {
  const child = spawn(command, args, { stdio: 'ignore' });
  started.push(child);
  if (child.pid === undefined) throw new Error(`${command} did not start`);
  return child.pid;
}

// Running: neither gone nor a zombie waiting to be reaped.
function alive(pid: number): boolean {
  const state = readStat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

it('kills what started during the case, counts it, and leaves running what ran before it', () => {
  const earlier = start('sleep', '60');
  const before = processesBelow();
  const during = start('sleep', '60');
  const end = killLeftovers(before);
  expect([end.killed, alive(during), alive(earlier), [...end.running]]).toEqual([1, false, true, [earlier]]);
});

it('kills what the case started below its own children: a command a shell sent to the background', () => {
  const before = processesBelow();
  const shell = start('bash', '-c', 'sleep 60 & wait');
  // Until the shell has started its sleep.
  let fresh: number[] = [];
  for (const until = Date.now() + 5000; fresh.length < 2 && Date.now() < until; ) {
    fresh = [...processesBelow()].filter((pid) => !before.has(pid));
  }
  const end = killLeftovers(before);
  expect([fresh.length, end.killed, fresh.some(alive), alive(shell)]).toEqual([2, 2, false, false]);
});

it("leaves the next case what it left running, so a process started between two cases dies with the next case's end", () => {
  const earlier = start('sleep', '60');
  const first = killLeftovers(processesBelow());
  const between = start('sleep', '60');
  const next = killLeftovers(first.running);
  expect([first.killed, next.killed, alive(between), alive(earlier)]).toEqual([0, 1, false, true]);
});
