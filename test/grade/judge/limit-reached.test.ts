// Which limit of a program process a text shows reached: each sign Node, bash or execute gives, and none for the rest.
import { describe, expect, it } from 'vitest';
import {
  FILE_TOO_LARGE,
  type LimitReached,
  limitReached,
  OUT_OF_CPU,
  OUT_OF_MEMORY,
  TOO_MANY_PROCESSES,
} from '../../../src/grade/judge/limit-reached.ts';

describe('limitReached', () => {
  it.each<[string, LimitReached | undefined]>([
    ['FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory', OUT_OF_MEMORY],
    ['# Fatal process out of memory: Zone', OUT_OF_MEMORY],
    ['RangeError: Array buffer allocation failed', OUT_OF_MEMORY],
    ['Error [ERR_MEMORY_ALLOCATION_FAILED]: Failed to allocate memory', OUT_OF_MEMORY],
    ['Error: spawn /usr/bin/bash EAGAIN', TOO_MANY_PROCESSES],
    ['bash: fork: retry: Resource temporarily unavailable', TOO_MANY_PROCESSES],
    ['bash: fork: Resource temporarily unavailable', TOO_MANY_PROCESSES],
    ['Error: EFBIG: file too large, write', FILE_TOO_LARGE],
    ['bash: line 1:    12 File size limit exceeded (core dumped) seq 1e9 > big', FILE_TOO_LARGE],
    ['the program was killed by SIGXCPU during call 1 of 1 (Bash)', OUT_OF_CPU],
    ['bash: line 1:    12 CPU time limit exceeded (core dumped) yes > /dev/null', OUT_OF_CPU],
    ['Error: ENOENT: no such file or directory', undefined],
    ['Error: read EAGAIN', undefined],
    ['', undefined],
  ])('%j', (text, limit) => {
    expect(limitReached(text)).toBe(limit);
  });

  it('names each limit and says how far it goes; only memory can be raised, and its hint names the flag', () => {
    expect(OUT_OF_MEMORY.hint).toMatch(/1024 MiB .*--memory <MiB>.*THEINFERENCE_MEMORY_MIB/);
    expect(TOO_MANY_PROCESSES.hint).toMatch(/256 processes and threads .*a fixed limit/);
    expect(FILE_TOO_LARGE.hint).toMatch(/64 MiB.*a fixed limit/);
    expect(OUT_OF_CPU.hint).toMatch(
      /5 s for the processes of one case together .*60 s for any one process \(fixed limits\)/,
    );
  });
});
