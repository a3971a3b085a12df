// Whether a program died of the memory limit each program process runs under (src/grade/run/isolation/
// program-limits.ts), read off what Node printed: its heap could not grow (V8 aborts), or a buffer could not be
// allocated and nothing caught the error (the process dies, or execute throws it). Pure.
import { DEFAULT_MEMORY_MIB } from '../run/isolation/program-limits.ts';

const SIGNS = [
  /JavaScript heap out of memory/,
  /Fatal process out of memory/,
  /RangeError: Array buffer allocation failed/,
  /ERR_MEMORY_ALLOCATION_FAILED|Failed to allocate memory|Cannot allocate memory/,
];

// What to do about a program that ran out of memory.
export const OUT_OF_MEMORY_HINT = `your program ran out of memory: each program process may use ${DEFAULT_MEMORY_MIB} MiB unless --memory says otherwise. Something in your code keeps growing without end (an array, a string or a buffer added to in a loop that never stops?)`;

// Whether `text` (a program's output, or the error execute threw) shows the program running out of memory.
export function outOfMemory(text: string): boolean {
  return SIGNS.some((sign) => sign.test(text));
}
