// The compacting loop (stage "Compact the context", docs/stages/compact-context.md): the agent loop of
// src/agent-loop.ts, plus three layers that keep its conversation small. Before every request, older long tool
// results become placeholders; past a size threshold, or when the model calls `compact`, the conversation is
// written to a transcript file and replaced by a summary the model writes.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { runTool } from './agent-loop.ts';
import {
  ACKNOWLEDGEMENT,
  CHARS_PER_TOKEN,
  COMPACT_RESULT,
  COMPACT_TOOL,
  COMPRESSED_MARKER,
  KEEP_RECENT_RESULTS,
  PLACEHOLDER_OVER_CHARS,
  placeholder,
  SUMMARY_INPUT_CHARS,
  SUMMARY_INSTRUCTION,
  SUMMARY_MAX_TOKENS,
  TRANSCRIPT_DIR,
  transcriptName,
  UNKNOWN_TOOL,
} from './compact-contract.ts';
import type { Execute } from './contract.ts';
import type { CompactRequest } from './loop-request.ts';

// Runs the loop from `request` and returns the conversation as it stands at the end (compacted, maybe).
export async function runCompactLoop(
  client: Anthropic,
  execute: Execute,
  request: CompactRequest,
): Promise<Anthropic.MessageParam[]> {
  // The threshold is the loop's, not the API's: no request carries it.
  const { compact_threshold, ...fields } = request;
  let messages: Anthropic.MessageParam[] = [...request.messages];
  let asked = false;
  for (;;) {
    messages = microCompact(messages);
    if (asked || estimatedTokens(messages) > compact_threshold) messages = await compact(client, request, messages);
    asked = false;
    const response = await client.messages.create({ ...fields, messages });
    messages.push({ role: 'assistant', content: response.content });
    if (response.stop_reason !== 'tool_use') return messages;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of response.content) {
      if (block.type !== 'tool_use') continue;
      if (block.name === COMPACT_TOOL) {
        // The loop's own tool: it compacts after the round, before the next request.
        asked = true;
        results.push({ type: 'tool_result', tool_use_id: block.id, content: COMPACT_RESULT });
      } else results.push(await runTool(execute, block));
    }
    messages.push({ role: 'user', content: results });
  }
}

// The conversation's estimated size in tokens: the characters of its JSON over CHARS_PER_TOKEN, not rounded.
export function estimatedTokens(messages: Anthropic.MessageParam[]): number {
  return JSON.stringify(messages).length / CHARS_PER_TOKEN;
}

// Every tool_result but the KEEP_RECENT_RESULTS most recent, whose content is a string longer than
// PLACEHOLDER_OVER_CHARS, as a placeholder naming its tool. New message and block objects where one changes: the
// messages the caller gave stay as they were.
export function microCompact(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  const names = new Map<string, string>();
  let results = 0;
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      if (block.type === 'tool_result') results += 1;
    }
  }
  let older = results - KEEP_RECENT_RESULTS;
  return messages.map((message) => {
    if (older <= 0 || !Array.isArray(message.content)) return message;
    let changed = false;
    const content = message.content.map((block) => {
      if (block.type !== 'tool_result' || older <= 0) return block;
      older -= 1;
      if (typeof block.content !== 'string' || block.content.length <= PLACEHOLDER_OVER_CHARS) return block;
      changed = true;
      return { ...block, content: placeholder(names.get(block.tool_use_id) ?? UNKNOWN_TOOL) };
    });
    return changed ? ({ ...message, content } as Anthropic.MessageParam) : message;
  });
}

// Writes the conversation to the next transcript file, asks the model for a summary of it in a request of its own,
// and gives the two messages that replace it.
async function compact(
  client: Anthropic,
  request: CompactRequest,
  messages: Anthropic.MessageParam[],
): Promise<Anthropic.MessageParam[]> {
  writeTranscript(messages);
  const response = await client.messages.create({
    model: request.model,
    max_tokens: SUMMARY_MAX_TOKENS,
    messages: [
      {
        role: 'user',
        content: `${SUMMARY_INSTRUCTION}\n\n${JSON.stringify(messages).slice(0, SUMMARY_INPUT_CHARS)}`,
      },
    ],
  });
  const summary = response.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
  return [
    { role: 'user', content: `${COMPRESSED_MARKER}\n\n${summary}` },
    { role: 'assistant', content: ACKNOWLEDGEMENT },
  ];
}

// .transcripts/transcript-<n>.jsonl in the working directory, n the first number whose file is not there yet: one
// line of JSON per message.
function writeTranscript(messages: Anthropic.MessageParam[]): void {
  mkdirSync(TRANSCRIPT_DIR, { recursive: true });
  let n = 1;
  while (existsSync(join(TRANSCRIPT_DIR, transcriptName(n)))) n += 1;
  writeFileSync(join(TRANSCRIPT_DIR, transcriptName(n)), messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
}
