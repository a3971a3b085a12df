import { describe, expect, it } from 'vitest';
import { busyMsOf, othersCores } from '../../bench/others-cpu.ts';

// /proc/stat's first line: user nice system idle iowait irq softirq steal guest guest_nice, in 1/100 s.
const STAT = 'cpu  1000 20 300 90000 50 7 3 400 0 0\ncpu0 500 10 150 45000 25 3 2 200 0 0\n';

describe('busyMsOf', () => {
  it('counts user, nice, system, irq and softirq, not idle, iowait or steal', () => {
    expect(busyMsOf(STAT)).toBe((1000 + 20 + 300 + 7 + 3) * 10);
  });

  it('reads anything else as nothing measured', () => {
    expect(busyMsOf('')).toBeNaN();
    expect(busyMsOf('intr 1 2 3')).toBeNaN();
  });
});

describe('othersCores', () => {
  it("is the machine's busy time less the bench's own, per ms of wall time", () => {
    const start = { busyMs: 10_000, ownMs: 2_000, at: 0 };
    expect(othersCores(start, { busyMs: 40_000, ownMs: 17_000, at: 10_000 })).toBe(1.5);
  });

  it('is never below none (the readings are taken at slightly different times)', () => {
    const start = { busyMs: 0, ownMs: 0, at: 0 };
    expect(othersCores(start, { busyMs: 900, ownMs: 1_000, at: 1_000 })).toBe(0);
  });

  it('is nothing measured without /proc/stat', () => {
    const start = { busyMs: Number.NaN, ownMs: 0, at: 0 };
    expect(othersCores(start, { busyMs: Number.NaN, ownMs: 10, at: 1_000 })).toBeNaN();
  });
});
