// One list of key shapes serves both redactors: every shape is removed from a case (redact.ts) and from the live
// proxy's capture (live/redact-secrets.ts), the capture's even when a stream splits the key between two chunks.
import { describe, expect, it } from 'vitest';
import { KEY_SHAPES } from '../../../src/record/map/key-shapes.ts';
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
