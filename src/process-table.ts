// The processes of this machine as /proc gives them (Linux; elsewhere none are found): the one reader of
// /proc/<pid>/stat, for the grader's kill of a program's tree and for the live recorder's stop of an agent's.
import { readdirSync, readFileSync } from 'node:fs';

// A process as /proc/<pid>/stat gives it (`name`: its command's name, at most 15 bytes of it).
export type Proc = { name: string; ppid: number; pgrp: number; state: string };

// `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so fields are read after the last `)`.
export function readStat(pid: number): Proc | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state = '', ppid = '', pgrp = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    name: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')),
    state,
    ppid: Number(ppid),
    pgrp: Number(pgrp),
  };
}

// The children of process `pid`, whichever of its threads started them.
export function childrenOf(pid: number): number[] {
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    try {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
      return listed.split(' ').flatMap((child) => (child === '' ? [] : [Number(child)]));
    } catch {
      return [];
    }
  });
}

// Clock ticks per second in /proc's times: USER_HZ, 100 on every Linux architecture Node runs on (Node has no
// sysconf to ask).
const TICKS_PER_SECOND = 100;

// The CPU time (user and system, ms) that `pid` has used, with that of the children it has reaped; 0 when it is
// gone. Fields 14 to 17 of its stat: utime, stime, cutime, cstime.
export function cpuTimeMs(pid: number): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + (Number(fields[i]) || 0), 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

// The CPU time (ms) that `root` and every process below it have used, those that ended included: each living
// process counts its own and its reaped children's, and a process that ended counts in whoever reaped it, so
// nothing counts twice. (A process between its end and its reaping may be missed by one reading.) At most
// `maxProcesses` are read: past them the tree is already more than a budget needs to see.
export function treeCpuMs(root: number, maxProcesses = 4096): number {
  let total = 0;
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length > 0 && seen.size < maxProcesses) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += cpuTimeMs(pid);
    stack.push(...childrenOf(pid));
  }
  return total;
}

// The memory `pid` holds of its own (bytes): its resident anonymous pages and shared memory (RssAnon and RssShmem
// of its status), never the files it maps (Node's own binary, shared by every Node process); 0 when it is gone.
export function heldBytes(pid: number): number {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return 0;
  }
  let kib = 0;
  for (const [, value] of text.matchAll(/^(?:RssAnon|RssShmem):\s+(\d+) kB$/gm)) kib += Number(value);
  return kib * 1024;
}

// What `root` and every process below it use together: CPU time (ms, as treeCpuMs counts it) and the memory they
// hold now (bytes, as heldBytes counts it). At most `maxProcesses` are read.
export function treeUsage(root: number, maxProcesses = 4096): { cpuMs: number; heldBytes: number } {
  let cpuMs = 0;
  let held = 0;
  const seen = new Set<number>();
  const stack = [root];
  while (stack.length > 0 && seen.size < maxProcesses) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    cpuMs += cpuTimeMs(pid);
    held += heldBytes(pid);
    stack.push(...childrenOf(pid));
  }
  return { cpuMs, heldBytes: held };
}

// Every process there is, by pid. Synchronous, so an exit hook can use it.
export function readProcessTable(): Map<number, Proc> {
  const table = new Map<number, Proc>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = readStat(Number(entry));
    if (proc !== undefined) table.set(Number(entry), proc);
  }
  return table;
}

// Whether `pid` descends from one of `ancestors` in `table` (not counting init, and at most 1,000 generations up:
// a table read while processes come and go may hold a loop).
export function descendsFrom(pid: number, ancestors: ReadonlySet<number>, table: Map<number, Proc>): boolean {
  let at = table.get(pid)?.ppid;
  for (let depth = 0; at !== undefined && at > 1 && depth < 1000; depth += 1) {
    if (ancestors.has(at)) return true;
    at = table.get(at)?.ppid;
  }
  return false;
}

// Every process below `root` (not `root` itself), as /proc shows them now; at most `maxProcesses`.
export function descendantsOf(root: number, maxProcesses = 4096): number[] {
  const found: number[] = [];
  const seen = new Set<number>([root]);
  const stack = childrenOf(root);
  while (stack.length > 0 && found.length < maxProcesses) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    found.push(pid);
    stack.push(...childrenOf(pid));
  }
  return found;
}
