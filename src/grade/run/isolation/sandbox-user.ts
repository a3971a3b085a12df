// The host user a sandbox runs as. bubblewrap's user namespace maps the grader's own uid, and the kernel never holds
// root to RLIMIT_NPROC: a task of uid 0 is exempt even inside a user namespace (kernel 6.18 too), so a process
// count would not hold for a grader run as root (a CI container, this suite). Such a grader starts its sandboxes as
// nobody; inside, the program is uid 0 without capabilities, as it always was. The grader's install must then be
// readable by every user (what npm makes under the usual umask; the sandbox's probe finds out if it is not), and the
// grader's own temp dirs it binds in (a staged copy, the tsx cache), which may lie under a TMPDIR only root can
// enter, are handed to bubblewrap as open descriptors.

// The uid and gid a grader run as root starts its sandboxes with; undefined for any other grader.
export const SANDBOX_USER: { uid: number; gid: number } | undefined =
  process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;

// The file descriptors, in the bubblewrap process, of the directories handed over open (see above).
export const BIND_FDS = { stage: 4, tsxCache: 5 } as const;
