// The host user a grader run as root starts a submission's program processes as: nobody. In the sandbox, because
// bubblewrap's user namespace maps the grader's own uid, and the kernel never holds root to RLIMIT_NPROC: a task of
// uid 0 is exempt even inside a user namespace (kernel 6.18 too), so a process count would not hold (inside, the
// program is uid 0 without capabilities, as it always was). Outside the sandbox (`--isolation off`, or `auto` where
// the container allows no sandbox, as Gradescope's usually does), because a program run as root reads every file:
// the reference and the snapshots of the grader's install above all (docs/decisions/016-unsandboxed-as-nobody.md).
// The reference's own runs are the grader's, and keep its user. Everything such a program reads must then be where
// nobody can reach it: Node, the grader's install (readable by every user under npm's usual umask; where it is not,
// a course directory under /root, the program runs from a copy placed where it is: program-install.ts) and the
// staged copy. bubblewrap resolves every source by its path, as nobody, even
// one handed over as an open descriptor (`--ro-bind-fd`: it follows /proc/self/fd/N to the path), so a copy under a
// TMPDIR only root can enter (mode 0700, as mkdtemp makes) is made in /tmp instead.
import { statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';

// The uid and gid a grader run as root starts a submission's program processes with; undefined for any other grader.
export const PROGRAM_USER: { uid: number; gid: number } | undefined =
  process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

// The first directory at or above `dir` that a user other than its owner (and not of its group) cannot enter, or
// undefined when every one can be.
export function closedToOthers(dir: string): string | undefined {
  for (let at = dir; ; at = dirname(at)) {
    let mode: number;
    try {
      mode = statSync(at).mode;
    } catch {
      return at;
    }
    if ((mode & 0o001) === 0) return at;
    if (dirname(at) === at) return undefined;
  }
}

// Where the grader makes the temp dirs a submission's program reads (bound into its sandbox, or entered as
// nobody): its own temp dir, unless it runs as root and nobody cannot enter that one (a TMPDIR of mode 0700), then
// /tmp.
export function bindableTmpdir(): string {
  const own = tmpdir();
  if (PROGRAM_USER === undefined || closedToOthers(own) === undefined) return own;
  return closedToOthers('/tmp') === undefined ? '/tmp' : own;
}

// Why a program run as PROGRAM_USER could not even start, or undefined: nobody must pass through to Node's install
// (`node`), else every program would fail saying only EACCES. The grader's install needs no such thing: where nobody
// cannot reach it, the program runs from a copy (program-install.ts); the grader does not copy Node.
export function closedToProgramUser(node: string): string | undefined {
  const closed = closedToOthers(node);
  if (closed === undefined) return undefined;
  return `the grader runs as root, so it runs the program under test as nobody, and nobody cannot enter ${closed}, on the way to Node (${node}): let every user pass through it (chmod o+x), install Node where every user can, or grade as a user other than root. Tell your course staff`;
}
