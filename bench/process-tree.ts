// Peak memory of a process and everything it spawns, from /proc (Linux). Sampling costs CPU, so the bench
// measures memory in runs of its own, never in the timed ones.
import { readdir, readFile } from 'node:fs/promises';

// The pids descending from `root` (itself included), from each process's parent in /proc/<pid>/stat.
async function treePids(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name (field 2) may hold spaces and parentheses: the fields after its last ')' are fixed.
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(after[1]);
    if (Number.isInteger(ppid)) parents.set(Number(entry), ppid);
  }
  const tree = new Set([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree].filter((pid) => parents.has(pid));
}

// The resident set (kB) of each process now; processes that exited meanwhile count 0.
async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return match?.[1] === undefined ? 0 : Number(match[1]);
}

// Samples the summed resident set of `root`'s tree every `intervalMs` until `done` settles; returns the peak (kB).
export async function peakTreeRssKb(root: number, done: Promise<unknown>, intervalMs = 10): Promise<number> {
  let finished = false;
  void done.finally(() => (finished = true));
  let peak = 0;
  while (!finished) {
    const pids = await treePids(root);
    const sizes = await Promise.all(pids.map(rssKb));
    peak = Math.max(
      peak,
      sizes.reduce((a, b) => a + b, 0),
    );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  return peak;
}
