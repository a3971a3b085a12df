// Recorded loops as cases: named as the recorder names cases, described for the student, privacy kept.
import { describe, expect, it } from 'vitest';
import { baseName, loopCases } from '../../../../src/modes/loop/record/loop-cases.ts';
import type { LoopSession, RecordedLoop } from '../../../../src/modes/loop/record/recorded-loop.ts';

const loop = (path: string): RecordedLoop => ({
  request: { model: 'm', max_tokens: 10, tools: [], messages: [{ role: 'user', content: `look at ${path}` }] },
  turns: [
    {
      message: {
        id: 'msg_1',
        content: [
          { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: path } },
          { type: 'tool_use', id: 't2', name: 'Glob', input: {} },
        ],
        stop_reason: 'tool_use',
      },
    },
    { message: { id: 'msg_2', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' } },
  ],
  outputs: { t1: { content: `contents of ${path}` }, t2: { content: '' } },
  defaults: ['system'],
  prompt: 'look',
  recorded: '2026-01-01T00:00:00Z',
});
const session: LoopSession = {
  format: 'claude-code',
  session: 'c7d3d95c-57f0-4359-8f4b-926a9bef5a3f',
  loops: [loop('/home/marco/a.md'), loop('/work/b.md')],
  skipped: [],
};
const sources = { users: ['marco'], homes: ['/home/marco'], patterns: [] };

describe('loopCases', () => {
  it('names several loops -01, -02…, describes each, and says where it came from', () => {
    const [first, second] = loopCases(session, { base: 'recorded-port', transcript: 'transcript.jsonl', sources });
    expect([first?.name, second?.name]).toEqual(['recorded-port-01', 'recorded-port-02']);
    expect(first?.data.description).toBe(
      'Replays a loop of 2 turns and 2 tool calls from a real Claude Code session (c7d3d95c; Read, Glob; 1 turn calls tools in parallel): every request carries the conversation so far, and the loop returns it whole.',
    );
    expect(Object.keys(first?.data ?? {})[0]).toBe('$schema');
    expect(first?.data.source).toEqual({
      format: 'claude-code',
      transcript: 'transcript.jsonl',
      session: 'c7d3d95c-57f0-4359-8f4b-926a9bef5a3f',
      recorded: '2026-01-01T00:00:00Z',
      prompt: 'look',
      defaults: ['system'],
    });
  });

  it("redacts the recording machine's home and user name from every string, and counts it", () => {
    const [first] = loopCases(session, { base: 'recorded-port', transcript: 't.jsonl', sources });
    expect(JSON.stringify(first?.data)).not.toContain('marco');
    expect(first?.data.outputs?.t1).toEqual({ content: 'contents of /home/user/a.md' });
    expect(Object.values(first?.redacted ?? {}).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('makes the owners of `ls -l` output `user`, a colleague the paths never named as well (issue 27)', () => {
    const listing = [
      'total 16',
      'drwxr-xr-x  4 marco  staff  128 Mar  3 10:00 .',
      '-rw-r--r--  1 marco  staff   42 Mar  3 10:00 a.md',
      '-rw-r--r--  1 zoe    zoe     17 Mar  3 10:01 notes.md',
    ].join('\n');
    const withListing: LoopSession = {
      ...session,
      loops: [{ ...loop('/work/b.md'), outputs: { t1: { content: listing }, t2: { content: '' } } }],
    };
    const [only] = loopCases(withListing, { base: 'recorded-ls', transcript: 't.jsonl', sources });
    expect(only?.data.outputs?.t1).toEqual({
      content: [
        'total 16',
        'drwxr-xr-x  4 user  staff  128 Mar  3 10:00 .',
        '-rw-r--r--  1 user  staff   42 Mar  3 10:00 a.md',
        '-rw-r--r--  1 user    user     17 Mar  3 10:01 notes.md',
      ].join('\n'),
    });
    expect(only?.redacted).toMatchObject({ 'file owner': 3 });
  });

  it('names one loop by its transcript alone', () => {
    expect(
      loopCases({ ...session, loops: [loop('/w')] }, { base: 'recorded-x', transcript: 't', sources })[0]?.name,
    ).toBe('recorded-x');
  });
});

describe('baseName', () => {
  it.each([
    ['a/claude-reliability/hello-world-script/transcript.jsonl', 'recorded-hello-world-script'],
    ['a/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl', 'recorded-fa812bfe'],
    ['tool_heavy.jsonl', 'recorded-tool-heavy'],
  ])('%s', (file, name) => {
    expect(baseName(file)).toBe(name);
  });
});
