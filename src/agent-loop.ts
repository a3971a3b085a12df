// The agent loop (stage "Run the loop", docs/stages/agent-loop.md): call the model with the conversation so far,
// run every tool it asks for through `execute` and send the results back, until it stops for any other reason.
import type Anthropic from '@anthropic-ai/sdk';
import type { Execute } from './contract.ts';
import type { LoopRequest } from './loop-request.ts';

// Runs the loop from `request` and returns the whole conversation: its messages, then every turn and result.
export async function runLoop(
  client: Anthropic,
  execute: Execute,
  request: LoopRequest,
): Promise<Anthropic.MessageParam[]> {
  const messages: Anthropic.MessageParam[] = [...request.messages];
  for (;;) {
    const response = await client.messages.create({ ...request, messages });
    // Every block as it came: a thinking block's signature must go back unchanged.
    messages.push({ role: 'assistant', content: response.content });
    if (response.stop_reason !== 'tool_use') return messages;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of response.content) {
      if (block.type === 'tool_use') results.push(await runTool(execute, block));
    }
    // One user message answers every tool_use of the turn, in order.
    messages.push({ role: 'user', content: results });
  }
}

// A tool's output as its tool_result; a throw is an error result, so one failing tool never ends the loop.
export async function runTool(
  execute: Execute,
  block: Anthropic.ToolUseBlock,
): Promise<Anthropic.ToolResultBlockParam> {
  try {
    const output = await execute(block.name, block.input);
    return {
      type: 'tool_result',
      tool_use_id: block.id,
      content: output.content,
      ...(output.is_error === true ? { is_error: true } : {}),
    };
  } catch (error) {
    const content = error instanceof Error ? error.message : String(error);
    return { type: 'tool_result', tool_use_id: block.id, content, is_error: true };
  }
}
