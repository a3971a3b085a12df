// The agent loop with subagents (stage "Delegate to a subagent", docs/stages/delegate-task.md): the loop of "Run the
// loop", except that a call of the `task` tool runs a child loop with a fresh conversation, and only the child's
// final text comes back, as that call's result.
import type Anthropic from '@anthropic-ai/sdk';
import { runTool } from './agent-loop.ts';
import type { Execute } from './contract.ts';
import type { LoopRequest } from './loop-request.ts';

// The page's words, as a student writes them: the tool the loop answers itself, the child's system prompt, its
// round limit, and the result of a child whose last turn has no text.
export const TASK_TOOL = 'task';
export const SUBAGENT_SYSTEM =
  'You are a subagent. Complete the task you are given, then summarize what you found or did: your final text is all the agent that called you will see.';
export const SUBAGENT_MAX_ROUNDS = 30;
export const NO_SUMMARY = '(no summary)';

// Runs the loop from `request` and returns the parent's whole conversation; nothing of a child's is in it.
export async function runTaskLoop(
  client: Anthropic,
  execute: Execute,
  request: LoopRequest,
): Promise<Anthropic.MessageParam[]> {
  const childTools = request.tools.filter((tool) => tool.name !== TASK_TOOL);
  const runChild = async (block: Anthropic.ToolUseBlock): Promise<Anthropic.ToolResultBlockParam> => {
    const { prompt } = block.input as { prompt: string };
    const child: LoopRequest = {
      model: request.model,
      max_tokens: request.max_tokens,
      system: SUBAGENT_SYSTEM,
      tools: childTools,
      messages: [{ role: 'user', content: prompt }],
    };
    const conversation = await rounds(client, child, SUBAGENT_MAX_ROUNDS, (b) => runTool(execute, b));
    const last = conversation.at(-1)?.content;
    const text = Array.isArray(last) ? last.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') : '';
    return { type: 'tool_result', tool_use_id: block.id, content: text === '' ? NO_SUMMARY : text };
  };
  return rounds(client, request, Number.POSITIVE_INFINITY, (block) =>
    block.name === TASK_TOOL ? runChild(block) : runTool(execute, block),
  );
}

// The loop itself, for the parent and each child: at most `limit` requests; a turn that stops for tool_use when the
// limit is reached ends it all the same, its tools not run (no request would carry their results).
async function rounds(
  client: Anthropic,
  request: LoopRequest,
  limit: number,
  run: (block: Anthropic.ToolUseBlock) => Promise<Anthropic.ToolResultBlockParam>,
): Promise<Anthropic.MessageParam[]> {
  const messages: Anthropic.MessageParam[] = [...request.messages];
  for (let round = 1; ; round += 1) {
    const response = await client.messages.create({ ...request, messages });
    messages.push({ role: 'assistant', content: response.content });
    if (response.stop_reason !== 'tool_use' || round >= limit) return messages;
    const results: Anthropic.ToolResultBlockParam[] = [];
    // In the blocks' order, one at a time: a child's requests come between the parent's, never beside them.
    for (const block of response.content) if (block.type === 'tool_use') results.push(await run(block));
    messages.push({ role: 'user', content: results });
  }
}
