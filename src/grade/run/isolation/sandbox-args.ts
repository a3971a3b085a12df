// The bubblewrap command line for one program process, from what it may see. Pure: which paths are visible,
// read-only or hidden is decided here and nowhere else, so a table of layouts tests it.
import { isAbsolute, join, relative, sep } from 'node:path';

// What one program process may see. Every path is absolute and real (no symlinks), and is mounted at the same
// path inside the sandbox as outside, so paths in its output and in its errors read as on the host.
export type SandboxLayout = {
  // The working directory: the course directory, or the package root when the reference runs. Read-only.
  dir: string;
  // The grader package's root. Its snapshots are never visible; when it lies inside something visible (installed
  // as a dependency, it is the course's node_modules/theinference) all of it is hidden but `packageFiles`.
  packageRoot: string;
  // Further directories bound read-only: Node's install, the node_modules holding tsx, a linked node_modules.
  readOnly: string[];
  // Files of the grader package the process runs or needs to load them (the standby bootstrap, package.json).
  packageFiles: string[];
  // System paths: symlinks recreated as they are (merged /usr), paths bound read-only.
  system: { symlinks: Array<{ target: string; path: string }>; readOnly: string[] };
  // The process's TMPDIR: an empty tmpfs mounted here, gone with the sandbox.
  tmp: string;
  // Bytes the TMPDIR may hold.
  tmpBytes: number;
  // A host directory bound read-write as `<tmp>/<name>`: the tsx transform cache the command's processes share.
  tsxCache?: { dir: string; name: string };
};

// What follows sandboxArgs, before the command: the sandbox's first process (pid 1 of its PID namespace) is a shell
// that runs the command and exits with its status (128 + the signal's number for one killed by a signal, as
// bwrap's own init would). bwrap's own init is not used: bwrap exits as soon as that init reports the command's
// exit, before the init is reaped, which leaves it orphaned, a zombie (`<defunct>`) for the system's init to reap
// (a container's or a VM's may never do it). With --as-pid-1, bwrap waits for its one child, the shell.
export const SANDBOX_INIT = ['--as-pid-1', '--', '/bin/sh', '-c', '"$@"; exit $?', 'sh'];

// bwrap's options, up to (not including) the `--` before the command.
export function sandboxArgs(layout: SandboxLayout): string[] {
  const args = [
    // Every namespace: user (capabilities dropped, no nested user namespaces), mount, PID (whatever the program
    // starts dies with it, and the grader is not in it), network (loopback only), IPC, UTS, cgroup.
    '--unshare-all',
    '--unshare-user',
    '--disable-userns',
    '--cap-drop',
    'ALL',
    // The grader dying (even of SIGKILL) takes the sandbox with it.
    '--die-with-parent',
    '--proc',
    '/proc',
    '--dev',
    '/dev',
  ];
  for (const { target, path } of layout.system.symlinks) args.push('--symlink', target, path);
  for (const path of layout.system.readOnly) args.push('--ro-bind', path, path);
  for (const path of outermost([...layout.readOnly, layout.dir])) args.push('--ro-bind', path, path);
  const visible = [...layout.system.readOnly, ...layout.readOnly, layout.dir];
  for (const path of hiddenPaths(layout.packageRoot, visible, layout.dir)) {
    args.push('--tmpfs', path);
    // What the process needs from under a hidden path comes back, read-only (mount points are made before the
    // empty tmpfs over it turns read-only).
    const needed = [...layout.packageFiles, ...layout.readOnly, layout.dir].filter(
      (p) => isInside(path, p) && p !== path,
    );
    for (const p of outermost(needed)) args.push('--ro-bind', p, p);
    args.push('--remount-ro', path);
  }
  for (const file of layout.packageFiles) {
    if (!visible.some((v) => isInside(v, file))) args.push('--ro-bind', file, file);
  }
  args.push('--size', String(layout.tmpBytes), '--tmpfs', layout.tmp);
  if (layout.tsxCache !== undefined) args.push('--bind', layout.tsxCache.dir, join(layout.tmp, layout.tsxCache.name));
  args.push('--chdir', layout.dir);
  return args;
}

// What to hide of the grader package given what is visible and the working directory: the whole package when it
// lies strictly inside a visible path (installed in the course's node_modules, its source, the reference
// solution, would be in reach too), else its snapshots when a visible path holds them. A process working in the
// package itself (the reference, for `snapshot` and the recorder) keeps the package but never its snapshots.
export function hiddenPaths(packageRoot: string, visible: string[], dir: string): string[] {
  const snapshots = join(packageRoot, 'snapshots');
  const hideSnapshots = visible.some((v) => isInside(v, snapshots)) ? [snapshots] : [];
  if (isInside(packageRoot, dir)) return hideSnapshots;
  return visible.some((v) => v !== packageRoot && isInside(v, packageRoot)) ? [packageRoot] : hideSnapshots;
}

// Whether `child` is `parent` or below it.
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

// The paths not inside another of them, in their given order: binding a path's parent already shows it.
function outermost(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q !== p && isInside(q, p)));
}
