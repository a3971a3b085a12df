// The grader's own event loop standing still is counted: a synchronous stall adds about its length to the total.
import { describe, expect, it } from 'vitest';
import { stalledMs } from '../../../src/grade/run/event-loop-stalls.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('stalledMs', () => {
  it('counts a stretch in which the loop ran no timer, a stall still under way included', async () => {
    stalledMs();
    await pause(120);
    const before = stalledMs();
    const until = performance.now() + 400;
    while (performance.now() < until) {
      // the loop stands still, as under a long JSON.parse
    }
    expect(stalledMs() - before).toBeGreaterThanOrEqual(300);
    await pause(120);
    expect(stalledMs() - before).toBeGreaterThanOrEqual(300);
  });
});
