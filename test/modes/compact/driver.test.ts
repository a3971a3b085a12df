// The compact mode's driver, for real on the file system: each run in a working directory of its own, holding the
// transcripts a case says were there before it, and a case whose transcripts_before names anything else refused.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { inOwnDirectory, parseCompactCase } from '../../../src/modes/compact/driver.ts';

const caseWith = (before: unknown) =>
  JSON.stringify({
    description: 'd',
    transcripts_before: before,
    request: {
      model: 'm',
      max_tokens: 10,
      tools: [],
      messages: [{ role: 'user', content: 'Hi.' }],
      compact_threshold: 100,
    },
    turns: [{ message: { content: [{ type: 'text', text: 'Hello.' }], stop_reason: 'end_turn' } }],
    outputs: {},
  });

describe('inOwnDirectory', () => {
  it('runs the loop where .transcripts/ holds the files the setup gives, and ends with them as the loop left them', async () => {
    let seen: string | undefined;
    const end = await inOwnDirectory(
      async () => {
        seen = readFileSync('.transcripts/transcript-1.jsonl', 'utf8');
        writeFileSync('.transcripts/transcript-2.jsonl', '{"role":"user"}\n');
      },
      { transcripts: { 'transcript-1.jsonl': '{"a":1}\n', '../escape.jsonl': 'x' } },
    );
    expect(seen).toBe('{"a":1}\n');
    expect(end).toEqual({
      transcripts: { 'transcript-1.jsonl': [{ a: 1 }], 'transcript-2.jsonl': [{ role: 'user' }] },
    });
  });

  it('runs it in an empty directory without a setup', async () => {
    let empty: boolean | undefined;
    expect(await inOwnDirectory(async () => void (empty = !existsSync('.transcripts')))).toEqual({});
    expect(empty).toBe(true);
  });
});

describe('parseCompactCase', () => {
  it('reads transcripts_before of transcript files by name, each its text', () => {
    const parsed = parseCompactCase(caseWith({ 'transcript-1.jsonl': '{}\n' }));
    expect(parsed.transcripts_before).toEqual({ 'transcript-1.jsonl': '{}\n' });
  });

  it.each([
    ['a name that is not a transcript', { '../../etc/passwd': 'x' }],
    ['a text that is not a string', { 'transcript-1.jsonl': [{}] }],
    ['a list', ['transcript-1.jsonl']],
  ])('refuses transcripts_before holding %s, saying what it must be', (_, before) => {
    expect(() => parseCompactCase(caseWith(before))).toThrow(
      '"transcripts_before" must be an object of transcript files by name (transcript-<n>.jsonl), each its text',
    );
  });
});
