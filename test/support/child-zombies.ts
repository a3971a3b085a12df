// What a process leaves unreaped. A child its parent never waited for stays a zombie (`<defunct>`), and one whose
// parent died first is handed to the system's init, which here (a VM's process_api, a container's first
// process) may never reap it either. The children of a process are sampled from /proc while it runs; once it has
// exited, any zombie among them, or in a session one of them led (a sandbox's init, in bubblewrap's session), is
// one it left behind. Linux only.
import { readdir, readFile } from 'node:fs/promises';
import { childrenOf } from '../../src/process-table.ts';

// A process as /proc/<pid>/stat gives it.
type Stat = { state: string; session: number };

async function statOf(pid: number): Promise<Stat | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  // After the command name (which may hold spaces and parentheses): state, ppid, pgrp, session, …
  const [state, , , session] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: state ?? '', session: Number(session) };
}

// Samples the children of `pid` (those of any of its threads: tsx's compiler is a child of its module hooks' thread)
// every millisecond until `stop()`, which returns every child seen. Synchronous reads in a timer: a child of this
// very process is reaped in the event loop's poll phase, after a timers phase that has seen it, however briefly it
// lived.
export function sampleChildren(pid: number): { stop: () => number[] } {
  const seen = new Set<number>();
  const sample = (): void => {
    for (const child of childrenOf(pid)) seen.add(child);
  };
  sample();
  const timer = setInterval(sample, 1);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return [...seen];
    },
  };
}

// The zombies among `children`, or in a session one of them led: `<pid> <state>` each, sorted.
export async function zombiesLeftBy(children: number[]): Promise<string[]> {
  const led = new Set(children);
  const found: string[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = await statOf(pid);
    if (stat?.state === 'Z' && (led.has(pid) || led.has(stat.session))) found.push(`${pid} ${stat.state}`);
  }
  return found.sort();
}
