// The compact judge's findings, from results alone: each mistake of micro-compaction, the threshold and the
// transcript said as its layer, with the cause a report groups by.
import { NO_FINAL_BREAK } from '../../../src/compact-contract.ts';
import { describe, expect, it } from 'vitest';
import { compactFinding } from '../../../src/modes/compact/judge/compact-findings.ts';
import { SUMMARY_INSTRUCTION } from '../../../src/compact-contract.ts';
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

  it('says a result whose content is a list of blocks, replaced', () => {
    const blocks = [{ type: 'text', text: long('blocks') }];
    const want = conversation(5, ['toolu_2']);
    (want[2] as { content: unknown[] }).content = [{ type: 'tool_result', tool_use_id: 'toolu_1', content: blocks }];
    const got = conversation(5, ['toolu_1', 'toolu_2']);
    const found = compactFinding(data, run(want), run(got), at);
    expect(found?.cause).toBe('blocks result replaced');
    expect(found?.message).toMatch(/the tool_result of toolu_1 .* yet its content is a list of blocks, not a string$/);
  });

  it('reads the same blocks in another key order as the same content', () => {
    const block = (text: string) => [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text }] },
    ];
    const want = conversation(5, ['toolu_2']);
    const got = conversation(5, ['toolu_2']);
    (want[2] as { content: unknown[] }).content = block(long('a'));
    (got[2] as { content: unknown[] }).content = [
      { content: [{ text: long('a'), type: 'text' }], tool_use_id: 'toolu_1', type: 'tool_result' },
    ];
    expect(compactFinding(data, run(want), run(got), at)).toBeUndefined();
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

  // A case whose .transcripts/ holds an earlier session's transcript-1.jsonl: the loop's compaction writes transcript-2.
  describe('with transcripts there before the run', () => {
    const seeded = { ...data, transcripts_before: { 'transcript-1.jsonl': '{"role":"user"}\n' } } as CompactCaseData;
    const earlier = [{ role: 'user' }];
    const want = {
      requests: [],
      end: { returned: [], transcripts: { 'transcript-1.jsonl': earlier, 'transcript-2.jsonl': [{}] } },
    };
    const end = { at: 'end', index: 0 } as const;

    it('says the loop that wrote no transcript of its own wrote none, the earlier one left as it was', () => {
      const got = { requests: [], end: { returned: [], transcripts: { 'transcript-1.jsonl': earlier } } };
      expect(compactFinding(seeded, want, got, end)?.cause).toBe('transcript not written');
    });

    it('names the file that was there when the loop numbered its own from 1 over it', () => {
      const got = { requests: [], end: { returned: [], transcripts: { 'transcript-1.jsonl': [{}] } } };
      const found = compactFinding(seeded, want, got, end);
      expect(found?.message).toBe(
        'the transcript files are transcript-1.jsonl, not transcript-1.jsonl, transcript-2.jsonl (transcript-1.jsonl was there before the loop ran)',
      );
      expect(found?.hint).toMatch(/n from 1 \(the first number whose file does not exist yet\)/);
    });
  });

  it("says a transcript whose last line has no line break after it (join('\\n'))", () => {
    const lines = [{ role: 'user' }, { role: 'assistant' }];
    const want = { requests: [], end: { returned: [], transcripts: { 'transcript-1.jsonl': lines } } };
    const got = {
      requests: [],
      end: { returned: [], transcripts: { 'transcript-1.jsonl': [...lines, NO_FINAL_BREAK] } },
    };
    const found = compactFinding(data, want, got, { at: 'end', index: 0 });
    expect(found?.message).toMatch(/holds the 2 lines expected, but its last line has no line break after it$/);
    expect(found?.hint).toMatch(/^every line of a transcript ends with a line break, the last one too/);
  });

  it('points the stub at its page', () => {
    const got = { requests: [], end: { threw: 'Error: runCompactLoop is not written yet (src/compact-loop.ts)' } };
    expect(compactFinding(data, run([]), got, { at: 'missing', index: 0 })?.hint).toMatch(
      /docs\/stages\/compact-context\.md/,
    );
  });
});

describe('compactFinding, the conversation it was given', () => {
  // A loop that assigned the placeholder into the given block: request.messages keeps its length, a block changes.
  const given = conversation(4, []);
  const changed = conversation(4, ['toolu_1']);
  const withRequest = { ...data, request: { ...data.request, messages: given } } as unknown as CompactCaseData;
  const end = { returned: [] };

  it('names the message and block changed, and says to build new ones', () => {
    const found = compactFinding(
      withRequest,
      { requests: [], end },
      { requests: [], end: { ...end, request_changed: { messages: changed } } },
      { at: 'end', index: 0 },
    );
    expect(found?.message).toMatch(
      /message 3 of request\.messages \(user\), block 1 \(the tool_result of toolu_1\): its content, 128 characters, replaced by the placeholder "\[Previous: used Read\]" \(request\.messages still has its 9 messages\)/,
    );
    expect(found?.hint).toMatch(
      /assigned the placeholder into a block of request\.messages .*build new blocks and messages/,
    );
    expect(found?.cause).toBe('given conversation changed');
  });

  it("leaves a conversation pushed onto to the loop's own message", () => {
    const found = compactFinding(
      withRequest,
      { requests: [], end },
      { requests: [], end: { ...end, request_changed: { messages: [...given, { role: 'user', content: 'x' }] } } },
      { at: 'end', index: 0 },
    );
    expect(found).toBeUndefined();
  });
});

describe('compactFinding, the first message after a compaction', () => {
  const texts = ['Accomplished: d0. ', 'Current state: d1.'];
  // The summary request as the contract words it (the instruction first), answered by a summary of two text blocks.
  const summaryRequest = {
    model: 'm',
    max_tokens: 1,
    messages: [{ role: 'user', content: `${SUMMARY_INSTRUCTION}\n\n[]` }],
  };
  const caseData = {
    ...data,
    turns: [{ message: { content: texts.map((text) => ({ type: 'text', text })), stop_reason: 'end_turn' } }],
  } as unknown as CompactCaseData;
  const compacted = (summary: string) => ({
    requests: [
      { request: summaryRequest },
      {
        request: {
          model: 'm',
          max_tokens: 1,
          tools: [],
          messages: [
            { role: 'user', content: `[Compressed]\n\n${summary}` },
            { role: 'assistant', content: 'Understood. I have the context from the summary. Continuing.' },
          ],
        },
      },
    ],
    end: undefined,
  });
  const second = { at: 'request', index: 1 } as const;

  it('says the separator expected and the one seen', () => {
    const found = compactFinding(caseData, compacted(texts.join('')), compacted(texts.join('\n')), second);
    expect(found?.message).toMatch(
      /joins the summary's 2 text blocks with "\\n" between them, where the contract puts nothing/,
    );
    expect(found?.hint).toMatch(/joined with nothing between them \(texts\.join\(''\), not texts\.join\('\\n'\)\)/);
    expect(found?.cause).toBe('summary joined');
  });

  it('says nothing goes between the blocks when the text differs otherwise', () => {
    const found = compactFinding(caseData, compacted(texts.join('')), compacted(texts[0]!), second);
    expect(found?.cause).toBe('compressed message');
    expect(found?.hint).toMatch(/joined with nothing between them: texts\.join\(''\)/);
  });
});
