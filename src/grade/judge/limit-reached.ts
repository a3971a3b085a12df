// Whether a program ran into one of the limits each program process runs under (src/grade/run/isolation/
// program-limits.ts), read off what Node, bash or execute said: its memory (V8 aborts when its heap cannot grow, a
// buffer cannot be allocated), its processes (a fork or spawn fails for want of one), the size of a file it writes
// (the write fails, a command writing it is killed). Pure.
import {
  CASE_CPU_SECONDS,
  DEFAULT_MEMORY_MIB,
  MAX_FILE_MIB,
  MAX_PROCESSES,
  PROCESS_CPU_SECONDS,
  TIMED_OUT_CASES,
} from '../run/isolation/program-limits.ts';

// A limit reached: what the verdict's message starts with, and its hint.
export type LimitReached = { name: string; hint: string };

// What to do about a program that reached each limit.
export const OUT_OF_MEMORY: LimitReached = {
  name: 'out of memory',
  hint: `your program ran out of memory: each program process may use ${DEFAULT_MEMORY_MIB} MiB unless the grader is given more (--memory <MiB>, or THEINFERENCE_MEMORY_MIB). Something in your code keeps growing without end (an array, a string or a buffer added to in a loop that never stops?)`,
};
export const TOO_MANY_PROCESSES: LimitReached = {
  name: 'too many processes',
  hint: `your program could not start another process: a sandbox may hold ${MAX_PROCESSES} processes and threads at once, Node's own included (a fixed limit). Something in your code starts processes without end, or never waits for the ones it started (a spawn in a loop?)`,
};
export const FILE_TOO_LARGE: LimitReached = {
  name: 'file too large',
  hint: `your program wrote a file past ${MAX_FILE_MIB} MiB, the most a program process may write (a fixed limit). Something in your code writes without end (a write in a loop that never stops, a stream never closed?)`,
};

// The memory a sandbox's processes hold together, past --memory: its own hint, since no one process ran out.
export function treeOutOfMemory(memoryMiB: number): LimitReached {
  return {
    name: 'out of memory',
    hint: `your program's processes together held more memory than ${memoryMiB} MiB, the most a program may hold at once across every process it starts (--memory <MiB>, or THEINFERENCE_MEMORY_MIB), those started while your code loads included. Something in your code starts processes that hold memory (at import, or in the background), or keeps growing without end?`,
  };
}

export const OUT_OF_CPU: LimitReached = {
  name: 'out of CPU time',
  hint: `your program used more CPU time than a case may: ${CASE_CPU_SECONDS} s for the processes of one case together (those still running from an earlier case included), and ${PROCESS_CPU_SECONDS} s for any one process (fixed limits). Something in your code computes without end, or starts processes that keep running after their command returns (a busy loop, a process started in the background and never stopped?)`,
};

// Cases not run after too many of the run's cases ran past their deadline (TIMED_OUT_CASES): one mistake, however
// many cases it leaves unrun.
export const TIMED_OUT: LimitReached = {
  name: 'past the deadline',
  hint: `your program answered none of its first ${TIMED_OUT_CASES} cases within their deadline (--timeout), so its other cases were not run: a hang costs its run one deadline per case. The first cases that timed out say which call was waiting: something there never finishes (a promise never settled, an await on what never comes, a loop without end). Fix it and run again`,
};

const SIGNS: Array<[RegExp, LimitReached]> = [
  [/\bSIGXCPU\b|CPU time limit exceeded/, OUT_OF_CPU],
  [/JavaScript heap out of memory|Fatal process out of memory/, OUT_OF_MEMORY],
  [/RangeError: Array buffer allocation failed/, OUT_OF_MEMORY],
  [/ERR_MEMORY_ALLOCATION_FAILED|Failed to allocate memory|Cannot allocate memory/, OUT_OF_MEMORY],
  [/\bspawn\b.*\bEAGAIN\b|fork: (retry: )?Resource temporarily unavailable/, TOO_MANY_PROCESSES],
  [/\bEFBIG\b|File size limit exceeded/, FILE_TOO_LARGE],
];

// The limit that `text` (a program's output, the error execute threw, a tool's error) shows the program reached.
export function limitReached(text: string): LimitReached | undefined {
  return SIGNS.find(([sign]) => sign.test(text))?.[1];
}
