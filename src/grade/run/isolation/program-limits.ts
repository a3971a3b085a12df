// What each program process may use, and the command that holds it to that: memory (RLIMIT_DATA, which bounds
// Node's heap and its buffers alike, where RLIMIT_AS would stop Node reserving its address space at start), the
// size of any file it writes (RLIMIT_FSIZE: Node gets EFBIG), CPU time (RLIMIT_CPU: SIGXCPU), and in the sandbox
// the number of its processes and threads (RLIMIT_NPROC, counted per user namespace, so per sandbox). Node cannot
// set a limit on a child, so a bash started in its place sets them, closes every file descriptor the grader
// inherited (a CI runner's, a parent shell's: Node's own are close-on-exec, these are not), and becomes the program
// with exec. Pure.
//
// CPU has two bounds, because RLIMIT_CPU is per process: a program that starts 240 busy processes gives each its
// own full allowance, and together they take every core for as long as the batch runs. So the bound that counts is
// per case and over the whole tree: the grader reads the CPU time of the program process and everything below it
// from /proc every CPU_SAMPLE_MS (program-machine.ts, process-table.ts's treeCpuMs), and a case whose processes
// used more than CASE_CPU_SECONDS since it began is stopped as out of CPU time. /proc is there on every Linux the
// grader runs on (a Debian CI box, GitHub's runners, a container); a cgroup would bound the tree exactly, but
// creating one needs root or a systemd delegation that neither a container nor a runner's user has. In the
// sandbox the tree is the whole PID namespace (nothing started inside it leaves it); without the sandbox a
// process that left the tree (setsid, then its parent exits) is beyond the reading, and PROCESS_CPU_SECONDS
// (RLIMIT_CPU) is what still bounds it. What a case leaves running is killed as it ends, by the driver
// (src/modes/leftovers.ts): these bounds are for what runs during a case, and for code that tampers with the driver.

// The memory when neither --memory nor THEINFERENCE_MEMORY_MIB says otherwise, and the least that starts Node
// with tsx at all.
export const DEFAULT_MEMORY_MIB = 1024;
export const MIN_MEMORY_MIB = 256;
// Where --memory is passed on to the program processes the grader starts (early standbys included): a CI job can
// set it too; the flag wins.
export const MEMORY_ENV = 'THEINFERENCE_MEMORY_MIB';
// Processes and threads in one sandbox (Node alone runs about a dozen threads; a case's bash calls add a few each),
// and the largest file a program may write.
export const MAX_PROCESSES = 256;
export const MAX_FILE_MIB = 64;
// The CPU time one case's processes may use together. An honest case uses a few hundredths of a second of it (the
// 117 register-tools cases of the reference take 3.2 s of CPU in all, measured: the grader, the processes' starts
// and the sandboxes included); a case that leaves busy processes behind is stopped after this divided by the
// cores, so it is kept short.
export const CASE_CPU_SECONDS = 5;
// Cases of one run (a submission's, in a class) out of CPU time after which its other cases are not run: a
// program that burns each case's budget would otherwise hold every core for cases × the budget ÷ the cores (a
// class run 100 times slower), and an honest case uses a hundredth of it. Each case not run fails, saying why.
export const OUT_OF_CPU_CASES = 5;
// Cases of one run past their deadline, none of its cases having ended otherwise, after which its other cases are
// not run, as above: a program that waits without end on every call (a promise never settled, a busy loop on a
// machine too loaded for the CPU limit to come first) would hold its class for cases × --timeout ÷ --jobs (9 minutes
// for 143 cases, measured under load). A program that hangs on some calls only is graded on every case: the cases
// it answers are its to pass.
export const TIMED_OUT_CASES = 10;
// The CPU time any one process may use in its life (a program process runs a whole batch of cases: a hundred of
// them take a few seconds).
export const PROCESS_CPU_SECONDS = 60;

// The limits of one program process.
type ProgramLimits = { memoryMiB: number; processes: number | undefined; fileMiB: number; cpuSeconds: number };

// The limits for a process started with the grader's environment `env`, sandboxed or not. Without the sandbox no
// process count is set: RLIMIT_NPROC would count every process of the user on the machine.
export function programLimits(env: NodeJS.ProcessEnv, sandbox: boolean): ProgramLimits {
  const named = Number(env[MEMORY_ENV]);
  const memoryMiB = Number.isSafeInteger(named) && named >= MIN_MEMORY_MIB ? named : DEFAULT_MEMORY_MIB;
  return {
    memoryMiB,
    processes: sandbox ? MAX_PROCESSES : undefined,
    fileMiB: MAX_FILE_MIB,
    cpuSeconds: PROCESS_CPU_SECONDS,
  };
}

// bash's part: set each limit, soft and hard (so the program cannot raise it), close every descriptor above
// stderr, then exec the program. The values come as arguments, never as text of the script.
const SCRIPT = [
  'ulimit -d "$1" -f "$2" -t "$3" || exit 126',
  'if [ -n "$4" ]; then ulimit -u "$4" || exit 126; fi',
  'shift 4',
  'for fd in /proc/self/fd/*; do n=${fd##*/}; if [ "$n" -gt 2 ]; then eval "exec $n>&-"; fi; done',
  'exec "$@"',
].join('\n');

// The command that runs `command` under `limits` (bash's -d is in KiB, and -f in 1024-byte blocks outside POSIX
// mode).
export function limitedCommand(bash: string, limits: ProgramLimits, command: string[]): string[] {
  return [
    bash,
    '-c',
    SCRIPT,
    'bash',
    String(limits.memoryMiB * 1024),
    String(limits.fileMiB * 1024),
    String(limits.cpuSeconds),
    limits.processes === undefined ? '' : String(limits.processes),
    ...command,
  ];
}
