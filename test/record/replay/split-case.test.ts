// A case over the size limit, split into halves that each reproduce on their own, and kept whole otherwise.
import { describe, expect, it } from 'vitest';
import type { CaseDraft, MappedCall } from '../../../src/record/record-types.ts';
import { caseChars, splitOversize } from '../../../src/record/replay/split-case.ts';

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
