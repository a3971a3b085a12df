// Whether a process the code under test killed has ended. A SIGKILL is delivered asynchronously, so a busy machine
// can show the process alive for a moment after the call that killed it returned: wait for it, briefly.
import { readFile } from 'node:fs/promises';

// Whether `pid` is gone or a zombie within `withinMs` (Linux /proc).
export async function processEnded(pid: number, withinMs = 2000): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; ; await new Promise((done) => setTimeout(done, 20))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null || stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    if (Date.now() >= deadline) return false;
  }
}
