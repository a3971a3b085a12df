// The limits of each program process and the command that sets them: memory from --memory (passed on in the
// environment) or the default, a process count only in the sandbox, the values as arguments of the script.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MEMORY_MIB,
  limitedCommand,
  MEMORY_ENV,
  PROCESS_CPU_SECONDS,
  programLimits,
} from '../../../../src/grade/run/isolation/program-limits.ts';

describe('programLimits', () => {
  it.each<[string, NodeJS.ProcessEnv, boolean, ReturnType<typeof programLimits>]>([
    [
      'the defaults, sandboxed',
      {},
      true,
      { memoryMiB: DEFAULT_MEMORY_MIB, processes: 256, fileMiB: 64, cpuSeconds: PROCESS_CPU_SECONDS },
    ],
    [
      'no process count without the sandbox',
      {},
      false,
      { memoryMiB: 1024, processes: undefined, fileMiB: 64, cpuSeconds: PROCESS_CPU_SECONDS },
    ],
    [
      '--memory, passed on',
      { [MEMORY_ENV]: '2048' },
      true,
      { memoryMiB: 2048, processes: 256, fileMiB: 64, cpuSeconds: PROCESS_CPU_SECONDS },
    ],
    [
      'too little is the default',
      { [MEMORY_ENV]: '10' },
      true,
      { memoryMiB: 1024, processes: 256, fileMiB: 64, cpuSeconds: PROCESS_CPU_SECONDS },
    ],
    [
      'not a number is the default',
      { [MEMORY_ENV]: 'lots' },
      true,
      { memoryMiB: 1024, processes: 256, fileMiB: 64, cpuSeconds: PROCESS_CPU_SECONDS },
    ],
  ])('%s', (_, env, sandbox, limits) => {
    expect(programLimits(env, sandbox)).toEqual(limits);
  });
});

describe('limitedCommand', () => {
  // Runs `script` in bash under `limits`, with descriptors 3 to 10 open as a parent would hand them down.
  const run = (limits: ReturnType<typeof programLimits>, script: string): string => {
    const [bash, ...args] = limitedCommand('/bin/bash', limits, ['/bin/bash', '-c', script]);
    return execFileSync(bash!, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe', ...Array(8).fill('pipe')] });
  };

  it('sets every limit, soft and hard, then runs the command', () => {
    const limits = { memoryMiB: 512, processes: 100, fileMiB: 8, cpuSeconds: 7 };
    const script =
      'ulimit -S -d; ulimit -H -d; ulimit -S -f; ulimit -H -f; ulimit -S -t; ulimit -H -t; ulimit -S -u; ulimit -H -u';
    expect(run(limits, script)).toBe('524288\n524288\n8192\n8192\n7\n7\n100\n100\n');
  });

  it('closes every descriptor the command would otherwise inherit above stderr', () => {
    const limits = { memoryMiB: 512, processes: undefined, fileMiB: 8, cpuSeconds: 7 };
    expect(run(limits, 'for n in 0 1 2 3 5 10; do [ -e /proc/self/fd/$n ] && echo -n "$n "; done; true')).toBe(
      '0 1 2 ',
    );
  });
});
