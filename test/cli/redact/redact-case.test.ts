// One recorded case redacted after the fact: its case file, snapshot and pending snapshot, counted by kind.
import { describe, expect, it } from 'vitest';
import { redactCase } from '../../../src/cli/redact/redact-case.ts';
import { formatSnapshot } from '../../../src/course/snapshot-file.ts';
import type { DispatchCaseData } from '../../../src/modes/dispatch/case.ts';

const KEY = `sk-ant-${'a1'.repeat(12)}`;
const data: DispatchCaseData = {
  description: 'Replays 1 call',
  calls: [{ tool: 'Bash', input: { command: `echo ${KEY} ACME-42 alice@acme.io` } }],
  source: { transcript: 't.jsonl', calls: [{ original: { description: 'mail alice@acme.io' } }] },
};
const snapshot = formatSnapshot({ results: [{ content: `${KEY} ACME-42 alice@acme.io\n`, exit_code: 0 }] });
const none = { users: [], homes: [], patterns: [] };
const recording = JSON.stringify({ calls: [{ recorded: { content: `mail alice@acme.io ${KEY}` } }] });

describe('redactCase', () => {
  it("applies the recorder's rules to every string of the case and its snapshots, and counts them by kind", () => {
    const r = redactCase(
      { name: 'recorded-a', data, snapshot, pending: snapshot, recording },
      { ...none, patterns: [/ACME-\d+/] },
    );
    expect(r.changed).toBe(true);
    expect(JSON.parse(r.caseText).calls[0].input.command).toBe(
      'echo <redacted:anthropic-key> <redacted> user@example.com',
    );
    expect(JSON.parse(r.caseText).source.calls[0].original.description).toBe('mail user@example.com');
    expect(r.results).toEqual([{ content: '<redacted:anthropic-key> <redacted> user@example.com\n', exit_code: 0 }]);
    expect(r.snapshot).toBe(formatSnapshot({ results: r.results ?? [] }));
    expect(r.pending).toBe(r.snapshot);
    expect(JSON.parse(r.recording ?? '')).toEqual({
      calls: [{ recorded: { content: 'mail user@example.com <redacted:anthropic-key>' } }],
    });
    expect(r.counts).toEqual({ 'Anthropic key': 4, 'e-mail address': 5, '--redact ACME-\\d+': 3 });
    expect(r.leaks).toEqual([]);
  });

  it('changes nothing where nothing matches, and leaves the pending file absent when there is none', () => {
    const clean: DispatchCaseData = { description: 'd', calls: [{ tool: 'Read', input: { path: 'a.txt' } }] };
    const plain = formatSnapshot({ results: [{ content: '1: A' }] });
    const r = redactCase(
      { name: 'a', data: clean, snapshot: plain, pending: null, recording: null },
      { ...none, patterns: [/nothing/] },
    );
    expect([r.changed, r.counts, r.pending]).toEqual([false, {}, null]);
  });

  it('redacts the machine running it, as record does', () => {
    const mine: DispatchCaseData = { description: 'd', calls: [{ tool: 'Read', input: { path: '/home/alice/x' } }] };
    const r = redactCase(
      { name: 'a', data: mine, snapshot: null, pending: null, recording: null },
      { users: ['alice'], homes: ['/home/alice'], patterns: [] },
    );
    expect(JSON.parse(r.caseText).calls[0].input.path).toBe('/home/user/x');
    expect(r.results).toBeUndefined();
  });
});
