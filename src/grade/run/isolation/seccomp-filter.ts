// The seccomp filter every sandbox starts under (bubblewrap's --seccomp): the system calls that make memory the
// kernel holds outside every process fail with EPERM. A SysV shared memory segment (shmget) or message queue
// (msgget) outlives the process that made it, detached, until its IPC namespace ends; a memfd (memfd_create) filled
// with write() and never mapped is held while its descriptor is open. None of them shows in a process's RssAnon or
// RssShmem, which is what --memory sums over the sandbox (src/process-table.ts's heldBytes), and RLIMIT_DATA bounds
// none: a trial's submission held 3 GiB of SysV segments under --memory 256 and passed every case. Node, tsx, bash
// and the course's tools call none of them. POSIX shared memory is /dev/shm, read-only in the sandbox.
//
// Written here, not taken from a package: the filter is 18 fixed instructions of classic BPF, and the packages that
// compile seccomp rules are native addons (libseccomp bindings), which the grader's install does not build. Pure but
// feedSeccomp, which writes the filter to a spawned bwrap.

import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';

// The descriptor bubblewrap reads the filter from: the grader's spawn passes it as the child's fd 4, after stdin,
// stdout, stderr and bwrap's --info-fd 3.
export const SECCOMP_FD = 4;

// The system calls refused, by architecture (their numbers in the kernel's unistd tables).
const REFUSED = {
  // AUDIT_ARCH_X86_64
  x64: { arch: 0xc000003e, calls: { shmget: 29, msgget: 68, memfd_create: 319 } },
  // AUDIT_ARCH_AARCH64
  arm64: { arch: 0xc00000b7, calls: { shmget: 194, msgget: 186, memfd_create: 279 } },
} as const;

// Classic BPF, as linux/filter.h and linux/seccomp.h define it.
const LOAD_WORD = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JUMP_IF_EQUAL = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JUMP_IF_AT_LEAST = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JUMP = 0x05; // BPF_JMP | BPF_JA
const RETURN = 0x06; // BPF_RET | BPF_K
const ALLOW = 0x7fff0000; // SECCOMP_RET_ALLOW
const REFUSE = 0x00050000 | 1; // SECCOMP_RET_ERRNO | EPERM
const NR = 0; // offsetof(struct seccomp_data, nr)
const ARCH = 4; // offsetof(struct seccomp_data, arch)
// x32 system calls on x86_64 carry this bit: none is made here, so every one is refused (their numbers differ).
const X32_BIT = 0x40000000;

type Instruction = { code: number; jt: number; jf: number; k: number };
const op = (code: number, k: number, jt = 0, jf = 0): Instruction => ({ code, jt, jf, k });

// The program: the architecture picks a block, each block refuses its calls; an architecture neither block names
// (the grader runs on x86_64 and arm64 only) is allowed everything, as without the filter.
export function seccompProgram(): Instruction[] {
  const x64 = block(REFUSED.x64.calls, true);
  const arm64 = block(REFUSED.arm64.calls, false);
  const deny = [op(RETURN, REFUSE)];
  // After the head: the x64 block, the arm64 block, then the one refusal both jump to.
  const head = [
    op(LOAD_WORD, ARCH),
    op(JUMP_IF_EQUAL, REFUSED.x64.arch, 0, 1),
    op(JUMP, 3),
    op(JUMP_IF_EQUAL, REFUSED.arm64.arch, 0, 1),
    op(JUMP, 1 + x64.length),
    op(RETURN, ALLOW),
  ];
  // Each block's jumps to the refusal are made relative to where the block lands.
  const toDeny = (code: Instruction[], after: number): Instruction[] =>
    code.map((i, at) => (i.jt === -1 ? { ...i, jt: code.length - at - 1 + after } : i));
  return [...head, ...toDeny(x64, arm64.length), ...toDeny(arm64, 0), ...deny];
}

// Load the call's number, jump to the refusal (jt -1, resolved by seccompProgram) for each refused one, else allow.
function block(calls: Record<string, number>, x32: boolean): Instruction[] {
  return [
    op(LOAD_WORD, NR),
    ...(x32 ? [op(JUMP_IF_AT_LEAST, X32_BIT, -1, 0)] : []),
    ...Object.values(calls).map((nr) => op(JUMP_IF_EQUAL, nr, -1, 0)),
    op(RETURN, ALLOW),
  ];
}

// The program as the kernel reads it: struct sock_filter { u16 code; u8 jt; u8 jf; u32 k; }, little-endian (both
// architectures are).
export function seccompFilter(): Buffer {
  const program = seccompProgram();
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(({ code, jt, jf, k }, i) => {
    bytes.writeUInt16LE(code, i * 8);
    bytes.writeUInt8(jt, i * 8 + 2);
    bytes.writeUInt8(jf, i * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return bytes;
}

// Hands the filter to a bwrap just spawned with a pipe at SECCOMP_FD: it reads it whole before it starts the
// sandbox.
export function feedSeccomp(child: ChildProcess): void {
  const pipe = child.stdio[SECCOMP_FD] as Writable | null | undefined;
  // bwrap gone before it read (it failed to start): its own exit says why.
  pipe?.on('error', () => {});
  pipe?.end(seccompFilter());
}
