// Transcripts of agents not read yet are recognised: the message says what the file is and how to record instead.
import { describe, expect, it } from 'vitest';
import { importText, importTranscript } from '../../../src/record/import-transcript.ts';
import { fixture } from './transcript-files.ts';

describe('transcripts of agents not read yet', () => {
  const part = {
    id: 'prt_01JQ8Z6V2N4K3M5P7R9T1W3Y5A',
    messageID: 'msg_01JQ8Z6T8H2J4L6N8Q0S2U4W6Y',
    sessionID: 'ses_01JQ8Z5X1B3D5F7H9K1M3P5R7T',
    type: 'tool',
    callID: 'toolu_01A2B3C4D5E6F7G8H9J0K1L2M3',
    tool: 'bash',
    state: { status: 'completed', input: { command: 'ls' }, output: 'a.ts\n', title: 'ls', metadata: {} },
  };
  it.each([
    ['a storage part', JSON.stringify(part, null, 2)],
    [
      "opencode export's document",
      JSON.stringify({
        info: { id: part.sessionID, title: 'x' },
        messages: [{ info: { id: part.messageID }, parts: [part] }],
      }),
    ],
  ])('OpenCode (%s) says what it is and how to record it instead', (_, text) => {
    expect(importText(text, 'opencode.json')).toEqual({
      file: 'opencode.json',
      message: expect.stringMatching(
        /^an OpenCode session, which theinference does not read yet; record the agent live/,
      ),
    });
  });
});

describe('agent event streams not read (issue 27)', () => {
  it.each([
    ['opencode-run.jsonl', /^`opencode run --format json` output \(OpenCode's run events/, 1],
    ['codex-exec.jsonl', /^`codex exec --json` output \(Codex CLI's exec events.*`--format codex` reads$/, 1],
    ['pi-print-mode.jsonl', /^pi's print-mode events \(`pi --mode json`.*-- pi …`$/, 2],
  ])('%s is named as what it is and not read (never as another format)', async (file, message, line) => {
    expect(await importTranscript(fixture(`agent-event-streams/${file}`))).toEqual({
      file: fixture(`agent-event-streams/${file}`),
      line,
      message: expect.stringMatching(message),
    });
  });

  it('an Anthropic stream of one event per line is still read as Anthropic', () => {
    const lines = [
      { type: 'message_start', message: { id: 'msg_01X', type: 'message', role: 'assistant', content: [] } },
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
      },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"path":"a"}' } },
      { type: 'content_block_stop', index: 0 },
    ];
    const read = importText(lines.map((l) => JSON.stringify(l)).join('\n'), 'stream.jsonl');
    expect('calls' in read && read.format).toBe('anthropic');
  });
});
