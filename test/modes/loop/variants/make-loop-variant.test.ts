// The property over the real agent-loop suite: for every case and several seeds, the reference loop run on the
// variant gives its snapshot's results with the same renaming applied to every message (each request's and the
// returned conversation's), the model, tools and system as they were. So a variant proves what its case proves and
// a correct loop passes it; and its results differ from the snapshot's, so stored conversations fail it.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLoopCase } from '../../../../src/modes/loop/driver.ts';
import { loadCases } from '../../../../src/course/load-cases.ts';
import type { ApiObject, LoopCaseData } from '../../../../src/modes/loop/case.ts';
import { wholeRequests } from '../../../../src/modes/loop/judge/loop-results.ts';
import { letterMap } from '../../../../src/grade/variants/letter-map.ts';
import { loopRenaming, makeLoopVariant } from '../../../../src/modes/loop/variants/make-loop-variant.ts';
import { REPO } from '../../../support/reference-course.ts';
import { streamingLoop as streaming } from '../../../support/streaming-loop.ts';

const STAGE = 'agent-loop';
const SEEDS = [1, 17, 2024, 987_654_321];
const cases = await loadCases(REPO, STAGE);

// Results with every message renamed as the variant renames them.
function renamed(results: unknown[], seed: number, name: string): unknown[] {
  const r = loopRenaming(letterMap(seed, name));
  return results.map((entry) => {
    const e = entry as { request?: ApiObject & { messages: ApiObject[] }; returned?: ApiObject[] };
    if (e.request !== undefined) return { request: { ...e.request, messages: e.request.messages.map(r.message) } };
    if (e.returned !== undefined) return { returned: e.returned.map(r.message) };
    return entry;
  });
}

describe('makeLoopVariant on the agent-loop suite', () => {
  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: the reference loop gives its snapshot renamed',
    async (name, c) => {
      const snapshot = JSON.parse(await readFile(join(REPO, 'snapshots', STAGE, `${name}.json`), 'utf8')) as {
        results: unknown[];
      };
      const expected = wholeRequests(snapshot.results);
      for (const seed of SEEDS) {
        const variant = makeLoopVariant({ name, data: c.data as LoopCaseData }, seed);
        expect(variant.ok).toBe(true);
        if (!variant.ok) continue;
        const results = wholeRequests(await runLoopCase(variant.data as never));
        expect(results).toEqual(renamed(expected, seed, name));
        expect(results).not.toEqual(expected);
      }
    },
  );
});

describe('makeLoopVariant on recorded streams', () => {
  const streamed = cases.filter((c) => (c.data as LoopCaseData).turns.some((t) => t.stream !== undefined));

  it('renames what the events carry, so a streaming loop is served the renamed turns', async () => {
    expect(streamed.length).toBeGreaterThan(0);
    for (const c of streamed) {
      const original = wholeRequests(await runLoopCase(c.data as never, streaming as never));
      const variant = makeLoopVariant({ name: c.name, data: c.data as LoopCaseData }, 41);
      if (!variant.ok) throw new Error(variant.why);
      expect(wholeRequests(await runLoopCase(variant.data as never, streaming as never))).toEqual(
        renamed(original, 41, c.name),
      );
    }
  });
});

describe('makeLoopVariant', () => {
  const data: LoopCaseData = {
    description: 'd',
    request: { model: 'claude-sonnet-4-6', max_tokens: 10, system: 'Be brief.', tools: [], messages: [] },
    turns: [
      {
        message: {
          type: 'message',
          role: 'assistant',
          stop_reason: 'tool_use',
          content: [
            { type: 'thinking', thinking: 'Read it.', signature: 'SiGn' },
            { type: 'tool_use', id: 'toolu_01Ab', name: 'Read', input: { path: 'a.txt' } },
          ],
        },
      },
    ],
    outputs: { toolu_01Ab: { content: 'Hello', is_error: true } },
  };

  it('renames ids after their prefix, texts and outputs; keeps names, inputs, signatures, model and system', () => {
    const variant = makeLoopVariant({ name: 'x', data }, 5);
    expect(variant.ok).toBe(true);
    if (!variant.ok) return;
    const [thinking, use] = variant.data.turns[0]!.message.content as ApiObject[];
    expect(use).toMatchObject({ type: 'tool_use', name: 'Read', input: { path: 'a.txt' } });
    expect(use!.id).toMatch(/^toolu_01[A-Za-z]{2}$/);
    expect(use!.id).not.toBe('toolu_01Ab');
    expect(thinking).toMatchObject({ signature: 'SiGn' });
    expect(thinking!.thinking).not.toBe('Read it.');
    expect(Object.keys(variant.data.outputs!)).toEqual([use!.id]);
    expect(variant.data.outputs![use!.id as string]).toMatchObject({ is_error: true });
    expect([variant.data.request.model, variant.data.request.system]).toEqual(['claude-sonnet-4-6', 'Be brief.']);
  });

  it('is the same for the same seed, and has none when nothing can be renamed', () => {
    expect(makeLoopVariant({ name: 'x', data }, 5)).toEqual(makeLoopVariant({ name: 'x', data }, 5));
    const bare: LoopCaseData = { ...data, turns: [{ message: { content: [], stop_reason: 'end_turn' } }], outputs: {} };
    expect(makeLoopVariant({ name: 'x', data: bare }, 5)).toEqual({ ok: false, why: 'nothing in it to rename' });
  });
});
