// The /proc reader: this process and a child it starts, as /proc shows them.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childrenOf, cpuTimeMs, descendsFrom, readProcessTable, readStat, treeCpuMs } from '../src/process-table.ts';

describe('the process table', () => {
  it('reads a process whose name holds spaces and parentheses, and its place in the tree', async () => {
    // A process's name (stat's second field) is its executable's: here `a) (b c`, which a split on spaces or on
    // the first `)` would misread.
    const dir = await mkdtemp(join(tmpdir(), 'theinference-process-table-'));
    const exe = join(dir, 'a) (b c');
    await symlink('/bin/sleep', exe);
    const child = spawn(exe, ['5'], { stdio: 'ignore' });
    try {
      await new Promise((done) => setTimeout(done, 300));
      expect(readStat(child.pid!)).toEqual({
        name: 'a) (b c',
        state: 'S',
        ppid: process.pid,
        pgrp: readStat(process.pid)!.pgrp,
      });
      expect(childrenOf(process.pid)).toContain(child.pid!);
      const table = readProcessTable();
      expect(table.get(child.pid!)?.ppid).toBe(process.pid);
      expect(descendsFrom(child.pid!, new Set([process.pid]), table)).toBe(true);
      expect(descendsFrom(process.pid, new Set([child.pid!]), table)).toBe(false);
    } finally {
      child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds no process for a pid that is not there', () => {
    expect(readStat(2 ** 22 + 1)).toBeUndefined();
    expect(childrenOf(2 ** 22 + 1)).toEqual([]);
  });
});

describe('CPU time', () => {
  it('counts a busy grandchild, and one that ended, in the CPU time of the tree above it', async () => {
    // A shell whose child burns about 0.6 s of CPU and ends (reaped by the shell: its time is the shell's
    // cutime), then a second that burns until killed.
    const script = 'timeout 0.6 sh -c "while :; do :; done"; sh -c "while :; do :; done" & wait';
    const root = spawn('sh', ['-c', script], { stdio: 'ignore', detached: true });
    try {
      await new Promise((done) => setTimeout(done, 1500));
      const own = cpuTimeMs(root.pid!);
      const tree = treeCpuMs(root.pid!);
      // The shell itself burns nothing: what it has is the ended child's (at least a tick, on any load).
      expect(own).toBeGreaterThanOrEqual(10);
      // The running grandchild's comes on top.
      expect(tree).toBeGreaterThan(own);
      expect(tree).toBeLessThan(1500 * 4);
    } finally {
      process.kill(-root.pid!, 'SIGKILL');
    }
  });

  it('is none for a process that is gone', () => {
    expect(treeCpuMs(2 ** 22 + 1)).toBe(0);
  });
});
