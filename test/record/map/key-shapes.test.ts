// One list of key shapes serves both redactors: every shape is removed from a case (redact.ts) and from the live
// proxy's capture (live/redact-secrets.ts), the capture's even when a stream splits the key between two chunks, and
// even glued to what comes before it (issue 39): a percent-escape, a JSON escape, a letter, a digit, `_`. Words
// that only hold a short prefix (`task-…` ends in `sk-`) stay.
import { describe, expect, it } from 'vitest';
import { KEY_SHAPES, keyPattern } from '../../../src/record/map/key-shapes.ts';
import { REDACTED, redactText, streamRedactor } from '../../../src/record/live/redact-secrets.ts';
import { makeRedactor } from '../../../src/record/map/redact.ts';

// A made-up key of each shape.
const SAMPLES: Record<string, string> = {
  'anthropic-key': 'sk-ant-api03-abcdefghijklmnopqrstuvwx',
  'openai-key': 'sk-proj-abcdefghijklmnopqrstuvwxyz',
  'github-token': `ghp_${'a1B2'.repeat(9)}`,
  'aws-key': 'ASIAIOSFODNN7EXAMPLE',
  'slack-token': 'xoxb-123456789012-abcdefghij',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZGEifQ.c2lnbmF0dXJlLWJ5dGVz',
};

describe.each(KEY_SHAPES.map((shape) => [shape.kind, shape.label] as const))('%s', (kind, label) => {
  const key = SAMPLES[label];
  const text = `{"env":"KEY=${key ?? ''}","next":1}`;

  it('has a sample here', () => expect(key).toBeDefined());

  it('is removed from a case, and counted', () => {
    const redactor = makeRedactor({ users: [], homes: [], patterns: [] });
    expect(redactor.text(text)).toBe(`{"env":"KEY=<redacted:${label}>","next":1}`);
    expect(redactor.counts[kind]).toBe(1);
  });

  it('is removed from the live capture, whole or split between two chunks anywhere', () => {
    expect(redactText(text)).toBe(`{"env":"KEY=${REDACTED}","next":1}`);
    for (let cut = 0; cut <= text.length; cut++) {
      const stream = streamRedactor();
      expect(stream.push(text.slice(0, cut)) + stream.push(text.slice(cut)) + stream.end(), `cut at ${cut}`).toBe(
        redactText(text),
      );
    }
  });
});

// Every way of splitting a text into two chunks, streamed through the live redactor.
function streamedAtEveryCut(text: string): string[] {
  const outs: string[] = [];
  for (let cut = 0; cut <= text.length; cut++) {
    const stream = streamRedactor();
    outs.push(stream.push(text.slice(0, cut)) + stream.push(text.slice(cut)) + stream.end());
  }
  return outs;
}

// What a transcript glues before a key: a URL's `=` and `"` percent-encoded, a JSON string's escapes, a word.
const GLUES = ['%3D', '%22', '\\n', '\\u003d', '\\t', 'x', 'Q', '7', '_'];
const WORDISH = new Set(['x', 'Q', '7', '_']);

// A bare OpenAI key: `sk-` and a run, the prefix of many words' endings, found only after a boundary.
const BARE_OPENAI = 'sk-abcdefghijklmnopqrstuvwxyz0123';

const GLUED: [label: string, key: string, glue: string, found: boolean][] = [
  ...Object.entries(SAMPLES).flatMap(([label, key]) =>
    GLUES.map((glue) => [label, key, glue, true] as [string, string, string, boolean]),
  ),
  ...GLUES.map(
    (glue) => ['openai-key (bare)', BARE_OPENAI, glue, !WORDISH.has(glue)] as [string, string, string, boolean],
  ),
];

describe('a key glued to what comes before it (issue 39)', () => {
  it.each(GLUED)('%s after %j: removed %s, whole or split anywhere', (_, key, glue, found) => {
    const text = `curl "https://api.test/v1?key${glue}${key}" -o out`;
    const expected = found ? `curl "https://api.test/v1?key${glue}${REDACTED}" -o out` : text;
    expect(redactText(text)).toBe(expected);
    expect(new Set(streamedAtEveryCut(text))).toEqual(new Set([expected]));
  });

  it.each(GLUED.filter(([, , , found]) => found))('%s after %j leaves no key in a case', (_, key, glue) => {
    const redactor = makeRedactor({ users: [], homes: [], patterns: [] });
    expect(redactor.text(`KEY${glue}${key} next`)).not.toContain(key);
  });
});

describe('ordinary words that hold a prefix stay', () => {
  it.each([
    'task-abcdefghijklmnopqrstuvwxyz',
    'the task-abcdefghijklmnopqrstuvwxyz0123 of %3Dtask-abcdefghijklmnopqrstuvwxyz and \\ntask-abcdefghijklmnopqrstuv',
    'risk-assessment-for-the-whole-project',
    'desk_sk-reservations-for-all-employees',
    'ask-me-anything-about-the-repository-layout',
    'EURASIA and ASIA-PACIFIC and AKIA',
    'xox-b-not-a-token and ghp_short and github_pat_short',
    'eyJ.eyJ.x and heyJude.theyJump.z',
  ])('%j', (text) => {
    expect(text.match(keyPattern())).toBeNull();
    expect(new Set(streamedAtEveryCut(text))).toEqual(new Set([text]));
  });
});
