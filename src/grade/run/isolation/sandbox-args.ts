// The bubblewrap command line for one program process, from what it may see. Pure: which paths are visible,
// read-only or hidden is decided here and nowhere else, so a table of layouts tests it.
import { isAbsolute, join, relative, sep } from 'node:path';
import { SECCOMP_FD } from './seccomp-filter.ts';

// What one program process may see. Every path is absolute and real (no symlinks). What the host has at a path is
// shown at the same path inside the sandbox, so paths in its output and in its errors read as on the host; the one
// exception is a submission, whose staged copy is shown at the submission's own path.
export type SandboxLayout = {
  // The working directory: the submission's path, or the package root when the reference runs. Read-only.
  dir: string;
  // A submission's working directory holds the grader's staged copy of it (stage-submission.ts), never the
  // directory itself, with the grader's own runtime packages at `<dir>/node_modules`. Absent for the reference,
  // which is shown as it is.
  stage?: { copy: string; modules?: string };
  // The grader package's root. Its snapshots are never visible; wherever a bind shows the whole package (installed
  // as a dependency, it is in the node_modules its runtime packages come from) all of it is hidden but
  // `packageFiles`.
  packageRoot: string;
  // Further directories shown read-only where they are: Node's install, the node_modules holding tsx.
  readOnly: string[];
  // Files of the grader package the process runs or needs to load them (the standby bootstrap, package.json).
  packageFiles: string[];
  // System paths: symlinks recreated as they are (merged /usr), paths bound read-only.
  system: { symlinks: Array<{ target: string; path: string }>; readOnly: string[] };
  // The process's TMPDIR: an empty tmpfs mounted here, gone with the sandbox. It is the only place the process can
  // write, its tsx transform cache included (tsx keeps it in `<TMPDIR>/tsx-<euid>`): no host directory is bound
  // writable, so whatever a program writes is held to these bytes and never reaches the host's disk.
  tmp: string;
  // Bytes the TMPDIR may hold.
  tmpBytes: number;
  // The process's channel to the grader (src/grade/run/channel-server.ts): the grader's socket, shown at `dest`.
  channel?: { source: string; dest: string };
  // Run as an unprivileged host user (isolation/program-user.ts): the program is uid 0 inside all the same.
  unprivileged?: boolean;
};

// What follows sandboxArgs, before the command: the sandbox's first process (pid 1 of its PID namespace) is a shell
// that runs the command and exits with its status (128 + the signal's number for one killed by a signal, as
// bwrap's own init would). bwrap's own init is not used: bwrap exits as soon as that init reports the command's
// exit, before the init is reaped, which leaves it orphaned, a zombie (`<defunct>`) for the system's init to reap
// (a container's or a VM's may never do it). With --as-pid-1, bwrap waits for its one child, the shell.
// The shell alone, for a command that must come before it (program-limits.ts's, which closes the descriptors the
// grader inherited before pid 1 is the shell: pid 1's descriptors are in reach of the program, /proc/1/fd).
export const INIT_SHELL = ['/bin/sh', '-c', '"$@"; exit $?', 'sh'];
export const AS_PID_1 = ['--as-pid-1', '--'];
export const SANDBOX_INIT = [...AS_PID_1, ...INIT_SHELL];

// A read-only bind: what the host has at `source`, shown at `dest`.
type Bind = { source: string; dest: string };

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
    // The system calls that hold memory outside every process refused (seccomp-filter.ts), read from this fd.
    '--seccomp',
    String(SECCOMP_FD),
    ...(layout.unprivileged === true ? ['--uid', '0', '--gid', '0'] : []),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
  ];
  for (const { target, path } of layout.system.symlinks) args.push('--symlink', target, path);
  const binds = bindsOf(layout);
  for (const { source, dest } of binds) args.push('--ro-bind', source, dest);
  for (const hidden of hiddenPaths(layout.packageRoot, binds, layout)) {
    args.push('--tmpfs', hidden.path);
    // What the process needs from under a hidden path comes back, read-only (mount points are made before the
    // empty tmpfs over it turns read-only). Only where the host's own path is hidden: elsewhere it needs nothing.
    if (hidden.own) {
      const needed = [...layout.packageFiles, ...layout.readOnly].filter(
        (p) => isInside(hidden.path, p) && p !== hidden.path,
      );
      for (const p of outermost(needed)) args.push('--ro-bind', p, p);
    }
    args.push('--remount-ro', hidden.path);
  }
  for (const file of layout.packageFiles) {
    if (!shownAsItself(binds, file)) args.push('--ro-bind', file, file);
  }
  args.push('--size', String(layout.tmpBytes), '--tmpfs', layout.tmp);
  // A socket takes a connection on a read-only mount: the program cannot replace or remove it.
  if (layout.channel !== undefined) args.push('--ro-bind', layout.channel.source, layout.channel.dest);
  // bubblewrap's own root and /dev are tmpfs too, writable and of no size limit: a program filling them (a file
  // in /, /etc or /dev/shm) would hold the host's memory, counted in no process's. Read-only, once every mount
  // point in them is made: the TMPDIR is the one place a program writes.
  args.push('--remount-ro', '/dev', '--remount-ro', '/');
  args.push('--chdir', layout.dir);
  return args;
}

// Every read-only bind, in mount order: the system, the paths shown where they are (outside the working directory
// first), the working directory (a submission's staged copy, or itself), the runtime packages in it, then the paths
// inside it that its copy does not show.
function bindsOf(layout: SandboxLayout): Bind[] {
  const own = (path: string): Bind => ({ source: path, dest: path });
  const system = layout.system.readOnly.map(own);
  const readOnly = outermost(layout.readOnly).filter((p) => !shownAsItself(system, p));
  if (layout.stage === undefined) {
    return [...system, ...outermost([...readOnly, layout.dir]).map(own)];
  }
  const outside = readOnly.filter((p) => !isInside(layout.dir, p));
  const work: Bind[] = [{ source: layout.stage.copy, dest: layout.dir }];
  if (layout.stage.modules !== undefined)
    work.push({ source: layout.stage.modules, dest: join(layout.dir, 'node_modules') });
  const inside = readOnly.filter((p) => isInside(layout.dir, p) && !shownAsItself(work, p));
  return [...system, ...outside.map(own), ...work, ...inside.map(own)];
}

// A path to cover with an empty read-only tmpfs, and whether it is the host's own path (then what the process
// needs from under it comes back).
type Hidden = { path: string; own: boolean };

// What to hide of the grader package given what the binds show: wherever a bind shows the whole package (installed
// as a dependency, its source and the reference would be in reach too), all of it; else its snapshots where a bind
// shows them. A process working in the package itself (the reference, for `snapshot` and the recorder) keeps the
// package but never its snapshots.
export function hiddenPaths(
  packageRoot: string,
  binds: Bind[],
  layout: Pick<SandboxLayout, 'dir' | 'stage'>,
): Hidden[] {
  const hidden: Hidden[] = [];
  const add = (bind: Bind, path: string): void => {
    const at = join(bind.dest, relative(bind.source, path));
    if (!hidden.some((h) => h.path === at)) hidden.push({ path: at, own: at === path });
  };
  const snapshots = join(packageRoot, 'snapshots');
  const reference = layout.stage === undefined && isInside(packageRoot, layout.dir);
  for (const bind of binds) {
    if (!reference && isInside(bind.source, packageRoot) && bind.source !== packageRoot) add(bind, packageRoot);
    else if (isInside(bind.source, snapshots)) add(bind, snapshots);
  }
  return hidden;
}

// Whether `path` is shown in the sandbox as the host has it: the last bind that covers it shows its own path.
function shownAsItself(binds: Bind[], path: string): boolean {
  const last = binds.findLast((b) => isInside(b.dest, path));
  return last !== undefined && join(last.source, relative(last.dest, path)) === path;
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
