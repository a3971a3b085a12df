// The /proc reader: this process and a child it starts, as /proc shows them.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childrenOf, descendsFrom, readProcessTable, readStat } from '../src/process-table.ts';

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
