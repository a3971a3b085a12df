// The reference loop with client.messages.stream in place of create, for tests: the same turns, rebuilt from events.
import type Anthropic from '@anthropic-ai/sdk';
import type { Execute, LoopRequest } from '../../src/index.ts';

export async function streamingLoop(client: Anthropic, execute: Execute, request: LoopRequest) {
  const messages: Anthropic.MessageParam[] = [...request.messages];
  for (;;) {
    const response = await client.messages.stream({ ...request, messages }).finalMessage();
    messages.push({ role: 'assistant', content: response.content });
    if (response.stop_reason !== 'tool_use') return messages;
    const results: Anthropic.ToolResultBlockParam[] = [];
    for (const block of response.content.filter((b) => b.type === 'tool_use')) {
      try {
        const output = await execute(block.name, block.input);
        results.push({
          type: 'tool_result',
          tool_use_id: block.id,
          content: output.content,
          ...(output.is_error ? { is_error: true } : {}),
        });
      } catch (error) {
        results.push({ type: 'tool_result', tool_use_id: block.id, content: (error as Error).message, is_error: true });
      }
    }
    messages.push({ role: 'user', content: results });
  }
}
