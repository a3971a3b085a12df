// The processes of this machine as /proc gives them (Linux; elsewhere none are found): the one reader of
// /proc/<pid>/stat, for the grader's kill of a program's tree and for the live recorder's stop of an agent's.
import { readdirSync, readFileSync } from 'node:fs';

// A process as /proc/<pid>/stat gives it.
export type Proc = { ppid: number; pgrp: number; state: string };

// `pid (comm) state ppid pgrp …`; comm may hold spaces and parentheses, so fields are read after the last `)`.
export function readStat(pid: number): Proc | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state = '', ppid = '', pgrp = ''] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid), pgrp: Number(pgrp) };
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
