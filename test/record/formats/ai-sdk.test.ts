// Vercel AI SDK messages: ModelMessage tool-call/tool-result parts (v5 and v4), UIMessage tool parts (v5 and v4),
// detected before Chat Completions (both have role "tool") and paired by toolCallId.
import { describe, expect, it } from 'vitest';
import { importText } from '../../../src/record/import-transcript.ts';
import { imported } from './transcript-files.ts';

const calls = (value: unknown) =>
  imported(importText(JSON.stringify(value), 'chat.json')).calls.map((c) => [
    c.id,
    c.name,
    c.input,
    c.result?.content,
    c.result?.isError,
  ]);

describe('AI SDK messages', () => {
  it('ModelMessages (v5): tool-call parts and the tool message with their outputs', () => {
    const messages = [
      { role: 'user', content: 'list it' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Listing.' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'bash', input: { command: 'ls' } },
          { type: 'tool-call', toolCallId: 'call_2', toolName: 'read_file', input: { path: 'x' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_2',
            toolName: 'read_file',
            output: { type: 'error-text', value: 'no x' },
          },
          { type: 'tool-result', toolCallId: 'call_1', toolName: 'bash', output: { type: 'text', value: 'a.ts\n' } },
        ],
      },
    ];
    expect(imported(importText(JSON.stringify(messages), 'chat.json')).format).toBe('ai-sdk');
    expect(calls(messages)).toEqual([
      ['call_1', 'bash', { command: 'ls' }, 'a.ts\n', false],
      ['call_2', 'read_file', { path: 'x' }, 'no x', true],
    ]);
  });

  it('ModelMessages (v4): args and result', () => {
    expect(
      calls({
        messages: [
          {
            role: 'assistant',
            content: [{ type: 'tool-call', toolCallId: 'c', toolName: 'bash', args: { command: 'pwd' } }],
          },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 'bash', result: { ok: 1 } }] },
        ],
      }),
    ).toEqual([['c', 'bash', { command: 'pwd' }, '{"ok":1}', false]]);
  });

  it('UIMessages: v5 tool-<name> and dynamic-tool parts, v4 tool-invocation parts', () => {
    const ui = [
      {
        id: 'm1',
        role: 'assistant',
        parts: [
          { type: 'tool-bash', toolCallId: 'a', state: 'output-available', input: { command: 'ls' }, output: 'x\n' },
          {
            type: 'dynamic-tool',
            toolName: 'grep',
            toolCallId: 'b',
            state: 'output-error',
            input: { pattern: '(' },
            errorText: 'bad',
          },
          {
            type: 'tool-invocation',
            toolInvocation: {
              state: 'result',
              toolCallId: 'c',
              toolName: 'glob',
              args: { pattern: '*' },
              result: 'a.ts',
            },
          },
        ],
      },
    ];
    expect(calls(ui)).toEqual([
      ['a', 'bash', { command: 'ls' }, 'x\n', false],
      ['b', 'grep', { pattern: '(' }, 'bad', true],
      ['c', 'glob', { pattern: '*' }, 'a.ts', false],
    ]);
  });
});
