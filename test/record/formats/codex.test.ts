// Codex CLI rollouts: detected from their lines, calls paired with their outputs by call_id, and each of Codex's
// wrappers around a command's output taken off, the exit code kept beside it.
import { describe, expect, it } from 'vitest';
import { codexResult } from '../../../src/record/formats/codex.ts';
import { importText } from '../../../src/record/import-transcript.ts';

const line = (type: string, payload: object) =>
  JSON.stringify({ timestamp: '2026-03-12T09:00:00.000Z', type, payload });

describe('codexResult', () => {
  it.each([
    [
      '{"output":"a\\n","metadata":{"exit_code":0,"duration_seconds":0.1}}',
      { content: 'a\n', isError: false, details: { exit_code: 0 } },
    ],
    [
      'Exit code: 2\nWall time: 0.2 seconds\nOutput:\nno\n',
      { content: 'no\n', isError: true, details: { exit_code: 2 } },
    ],
    [
      'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOriginal token count: 1\nOutput:\nok\n',
      { content: 'ok\n', isError: false, details: { exit_code: 0 } },
    ],
    [
      'Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 3\nOutput:\n',
      { isError: false, details: { running: true } },
    ],
    ['plain text', { content: 'plain text', isError: false }],
  ])('%j', (output, result) => {
    expect(codexResult(output, 7)).toMatchObject({ ...result, line: 7 });
  });

  it('reads content items as their text', () => {
    expect(codexResult([{ type: 'input_text', text: 'hi' }], 1).content).toBe('hi');
  });
});

describe('a Codex rollout', () => {
  const text = [
    line('session_meta', { id: 's-1', cwd: '/w/shop', cli_version: '0.46.0' }),
    line('response_item', {
      type: 'function_call',
      name: 'shell',
      arguments: '{"command":["bash","-lc","ls"]}',
      call_id: 'c1',
    }),
    line('response_item', { type: 'custom_tool_call', call_id: 'c2', name: 'apply_patch', input: '*** Begin Patch' }),
    line('response_item', { type: 'custom_tool_call_output', call_id: 'c2', output: 'Success.' }),
    line('response_item', { type: 'function_call_output', call_id: 'c1', output: 'exec command rejected by user' }),
  ].join('\n');

  it('is detected, with its session id and cwd, and pairs results by call_id in any order', () => {
    const transcript = importText(text, 'rollout.jsonl');
    expect(transcript).toMatchObject({ format: 'codex', sessionId: 's-1', cwd: '/w/shop' });
    if (!('calls' in transcript)) throw new Error('not imported');
    expect(transcript.calls.map((c) => [c.name, c.result?.content, c.notRun])).toEqual([
      ['shell', 'exec command rejected by user', 'rejected by the user'],
      ['apply_patch', 'Success.', undefined],
    ]);
    expect(transcript.calls[0]?.input).toEqual({ command: ['bash', '-lc', 'ls'] });
  });
});
