// Transcripts of agents not read yet are recognised: the message says what the file is and how to record instead.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../src/record/import-transcript.ts';

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
