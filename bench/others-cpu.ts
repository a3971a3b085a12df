// How busy the machine was with work other than the bench's: the CPU time every process used (/proc/stat) less
// what this process and the commands it ran and waited for used (its own times and its reaped children's,
// /proc/self/stat). The load average cannot tell that apart: the bench's own grader runs count in it, two or
// three processes at a time. Linux only; elsewhere it reads as nothing measured.
import { readFileSync } from 'node:fs';
import { cpuTimeMs } from '../src/process-table.ts';

// Clock ticks per second in /proc/stat (USER_HZ, 100 on every Linux architecture Node runs on).
const TICKS_PER_SECOND = 100;

// One reading: the machine's busy CPU time, the bench's own (both ms) and when (performance.now(), ms).
export type CpuReading = { busyMs: number; ownMs: number; at: number };

// The busy CPU time (ms) of /proc/stat's first line: user, nice, system, irq and softirq. Idle, iowait and steal
// (time the hypervisor gave elsewhere) are not work done here.
export function busyMsOf(procStat: string): number {
  const fields = (procStat.split('\n')[0] ?? '').trim().split(/\s+/);
  if (fields[0] !== 'cpu') return Number.NaN;
  const [user, nice, system, , , irq, softirq] = fields.slice(1).map(Number);
  const ticks = [user, nice, system, irq, softirq].reduce<number>((sum, t) => sum + (t ?? Number.NaN), 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

// The cores' worth of CPU the rest of the machine used on average between two readings.
export function othersCores(start: CpuReading, end: CpuReading): number {
  const wall = end.at - start.at;
  const others = end.busyMs - start.busyMs - (end.ownMs - start.ownMs);
  return wall > 0 ? Math.max(0, others) / wall : Number.NaN;
}

// A reading now.
export function readCpu(): CpuReading {
  let busyMs = Number.NaN;
  try {
    busyMs = busyMsOf(readFileSync('/proc/stat', 'utf8'));
  } catch {
    // not Linux: nothing measured
  }
  return { busyMs, ownMs: cpuTimeMs(process.pid), at: performance.now() };
}
