// The sandbox's seccomp filter, run by a small classic-BPF interpreter on the data the kernel gives it (a call's
// number and architecture): which calls it refuses, and that it allows everything else. The real sandbox running it
// is hostile-tree-memory.test.ts's.
import { describe, expect, it } from 'vitest';
import { seccompFilter, seccompProgram } from '../../../../src/grade/run/isolation/seccomp-filter.ts';

const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;
const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;

// What the filter returns for a call: classic BPF's load, jumps and return, as the kernel runs them.
function run(nr: number, arch: number): number {
  const program = seccompProgram();
  const data = [nr, arch];
  let a = 0;
  for (let pc = 0; pc < program.length; ) {
    const { code, jt, jf, k } = program[pc]!;
    if (code === 0x20) {
      a = data[k / 4]!;
      pc += 1;
    } else if (code === 0x15) pc += 1 + (a === k ? jt : jf);
    else if (code === 0x35) pc += 1 + (a >= k ? jt : jf);
    else if (code === 0x05) pc += 1 + k;
    else if (code === 0x06) return k;
    else throw new Error(`instruction ${code} at ${pc}`);
  }
  throw new Error('ran off the end');
}

describe('seccompFilter', () => {
  it.each([
    ['shmget', 29, X64],
    ['msgget', 68, X64],
    ['memfd_create', 319, X64],
    ['an x32 call', 0x40000000 + 29, X64],
    ['shmget', 194, ARM64],
    ['msgget', 186, ARM64],
    ['memfd_create', 279, ARM64],
  ])('refuses %s (%i) with EPERM', (_, nr, arch) => {
    expect(run(nr, arch)).toBe(EPERM);
  });

  it.each([
    ['read', 0, X64],
    ['mmap', 9, X64],
    ['shmat', 30, X64],
    ['semget', 64, X64],
    ['clone3', 435, X64],
    ['read', 63, ARM64],
    ['shmat', 196, ARM64],
    ['ioctl, 29 on arm64 (shmget on x64)', 29, ARM64],
    ['any call of another architecture', 29, 0x40000003],
  ])('allows %s (%i)', (_, nr, arch) => {
    expect(run(nr, arch)).toBe(ALLOW);
  });

  it('is the program as the kernel reads it: 8 bytes an instruction, every jump inside it', () => {
    const program = seccompProgram();
    expect(seccompFilter().length).toBe(program.length * 8);
    program.forEach(({ code, jt, jf, k }, pc) => {
      const targets = code === 0x05 ? [k] : code === 0x15 || code === 0x35 ? [jt, jf] : [];
      for (const t of targets) expect(pc + 1 + t).toBeLessThan(program.length);
    });
  });
});
