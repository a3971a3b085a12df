// The progress line of `theinference record` on a terminal.
import { describe, expect, it } from 'vitest';
import { progressLine, snapshotLine } from '../../../src/record/write/render-progress.ts';

describe('progressLine', () => {
  it.each([
    [{ replayed: 0, of: 235, transcript: 'fa812bfe.jsonl' }, 'replaying: 0 of 235 calls (0 %), fa812bfe.jsonl'],
    [{ replayed: 120, of: 235, transcript: 'a.jsonl' }, 'replaying: 120 of 235 calls (51 %), a.jsonl'],
    [{ replayed: 2, of: 2, transcript: 'b.jsonl' }, 'replaying: 2 of 2 calls (100 %), b.jsonl'],
  ])('%j', (progress, line) => {
    expect(progressLine(progress)).toBe(line);
  });
});

describe('snapshotLine', () => {
  it.each([
    [0, 24, 'snapshotting with the reference: 0 of 24 cases (0 %)'],
    [7, 24, 'snapshotting with the reference: 7 of 24 cases (29 %)'],
    [24, 24, 'snapshotting with the reference: 24 of 24 cases (100 %)'],
  ])('%i of %i', (done, of, line) => {
    expect(snapshotLine(done, of)).toBe(line);
  });
});
