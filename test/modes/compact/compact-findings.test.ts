// The compact judge's findings, from results alone: each mistake of micro-compaction, the threshold and the
// transcript said as its layer, with the cause a report groups by.
import { describe, expect, it } from 'vitest';
import { compactFinding } from '../../../src/modes/compact/judge/compact-findings.ts';
import type { CompactCaseData } from '../../../src/modes/compact/case.ts';

const long = (tag: string) => `${tag} ${'x'.repeat(120)}`;
const use = (id: string) => ({ type: 'tool_use', id, name: 'Read', input: { path: id } });
const result = (id: string, content: string) => ({ type: 'tool_result', tool_use_id: id, content });
// A conversation of n rounds, each result long; `placeholders`: the ids sent as placeholders.
function conversation(n: number, placeholders: string[]): unknown[] {
  const messages: unknown[] = [{ role: 'user', content: 'go' }];
  for (let i = 1; i <= n; i += 1) {
    const id = `toolu_${i}`;
    messages.push({ role: 'assistant', content: [use(id)] });
    messages.push({
      role: 'user',
      content: [result(id, placeholders.includes(id) ? '[Previous: used Read]' : long(id))],
    });
  }
  return messages;
}
const data = { request: { compact_threshold: 1000 }, turns: [] } as unknown as CompactCaseData;
const run = (messages: unknown) => ({
  requests: [{ request: { model: 'm', max_tokens: 1, tools: [], messages } }],
  end: undefined,
});
const at = { at: 'request', index: 0 } as const;

describe('compactFinding', () => {
  // Five long results: the contract sends the two oldest as placeholders.
  const contract = conversation(5, ['toolu_1', 'toolu_2']);
  it.each([
    [
      'a recent result replaced',
      ['toolu_1', 'toolu_2', 'toolu_3'],
      'recent result replaced',
      /the 3 most recent tool_results/,
    ],
    ['an older result kept whole', ['toolu_1'], 'older result kept whole', /kept more than the 3 most recent/],
  ])('%s', (_, got, cause, hint) => {
    const found = compactFinding(data, run(contract), run(conversation(5, got as string[])), at);
    expect(found?.cause).toBe(cause);
    expect(found?.hint).toMatch(hint as RegExp);
  });

  it('names the placeholder whose words differ', () => {
    const want = conversation(4, ['toolu_1']);
    const got = JSON.parse(JSON.stringify(want).replace('[Previous: used Read]', '[Previous: used toolu_1]'));
    expect(compactFinding(data, run(want), run(got), at)?.cause).toBe('placeholder wording');
  });

  it('says a request that sends compact_threshold', () => {
    const got = { requests: [{ request: { messages: [], compact_threshold: 1000 } }], end: undefined };
    expect(compactFinding(data, run([]), got, at)?.cause).toBe('threshold sent');
  });

  it('says the transcript a compaction did not write', () => {
    const want = { requests: [], end: { returned: [], transcripts: { 'transcript-1.jsonl': [{}] } } };
    const got = { requests: [], end: { returned: [] } };
    expect(compactFinding(data, want, got, { at: 'end', index: 0 })?.cause).toBe('transcript not written');
  });

  it('points the stub at its page', () => {
    const got = { requests: [], end: { threw: 'Error: runCompactLoop is not written yet (src/compact-loop.ts)' } };
    expect(compactFinding(data, run([]), got, { at: 'missing', index: 0 })?.hint).toMatch(
      /docs\/stages\/compact-context\.md/,
    );
  });
});
