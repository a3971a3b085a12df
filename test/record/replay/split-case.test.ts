// A case over the size limit, split into halves that each reproduce on their own, and kept whole otherwise.
import { describe, expect, it } from 'vitest';
import type { CaseDraft, MappedCall } from '../../../src/record/record-types.ts';
import { caseChars, mergeAdjacent, splitOversize } from '../../../src/record/replay/split-case.ts';

// A draft of the calls at these indices, each writing a file of `size` characters.
const draft = (part: number[], size = 100): CaseDraft => ({
  files: {},
  origins: {},
  calls: part.map(
    (i): MappedCall => ({
      id: `toolu_${i}`,
      call: { tool: 'Write', input: { path: `<sandbox>/f${i}`, file_text: 'x'.repeat(size) } },
      originalTool: 'Write',
      renamedKeys: {},
      droppedKeys: {},
      check: { kind: 'write' },
    }),
  ),
  results: part.map(() => ({ content: 'ok' })),
});

describe('splitOversize', () => {
  it('halves a case over the limit until each part is under it, every part replayed again', async () => {
    const asked: number[][] = [];
    const parts = await splitOversize(
      [0, 1, 2, 3],
      draft([0, 1, 2, 3]),
      async (part) => {
        asked.push(part);
        return draft(part);
      },
      250,
    );
    expect(parts.map((p) => p.calls.map((c) => c.id))).toEqual([['toolu_0'], ['toolu_1'], ['toolu_2'], ['toolu_3']]);
    expect(asked).toEqual([[0, 1], [2, 3], [0], [1], [2], [3]]);
    expect(parts.every((p) => caseChars(p) <= 250)).toBe(true);
  });

  it('keeps a case under the limit whole, without replaying anything', async () => {
    const whole = draft([0, 1]);
    expect(await splitOversize([0, 1], whole, async () => undefined, 10_000)).toEqual([whole]);
  });

  it('keeps the case whole when a half does not reproduce on its own, so no call is lost', async () => {
    const whole = draft([0, 1, 2]);
    const parts = await splitOversize([0, 1, 2], whole, async (part) => (part[0] === 0 ? draft(part) : undefined), 50);
    expect(parts).toEqual([whole]);
  });

  it('keeps a single call over the limit as its own case', async () => {
    const one = draft([7], 1_000);
    expect(await splitOversize([7], one, async () => undefined, 50)).toEqual([one]);
  });
});

describe('mergeAdjacent (issue 27: fewer, fuller cases)', () => {
  const part = (kept: number[], size = 100) => ({ kept, draft: draft(kept, size) });
  const ids = (parts: { draft: CaseDraft }[]) => parts.map((p) => p.draft.calls.map((c) => c.id.slice(6)).join(','));

  it('makes adjacent cases one while they reproduce together and fit the calls and size limits', async () => {
    const asked: number[][] = [];
    const merged = await mergeAdjacent(
      [part([0]), part([1, 2]), part([3]), part([4, 5, 6])],
      async (p) => {
        asked.push(p);
        return draft(p);
      },
      4,
    );
    expect(ids(merged)).toEqual(['0,1,2,3', '4,5,6']);
    // [0..3] and [4,5,6] would be 7 calls, over 4: never replayed together.
    expect(asked).toEqual([
      [0, 1, 2],
      [0, 1, 2, 3],
    ]);
  });

  it('keeps them apart where they do not reproduce together (the world changed between them) or would be too big', async () => {
    const apart = await mergeAdjacent([part([0]), part([1])], async () => undefined, 25);
    expect(ids(apart)).toEqual(['0', '1']);
    const big = await mergeAdjacent([part([0], 300), part([1], 300)], async (p) => draft(p, 300), 25, 500);
    expect(ids(big)).toEqual(['0', '1']);
  });
});
