// Your agent loop, the one file this stage asks you to write (course page "Run the loop").
// Grade it with `npm run watch`: every case fails with the message below until runLoop calls the model.
import type Anthropic from '@anthropic-ai/sdk';
import type { Execute, LoopRequest } from 'theinference';

// Calls the model with the conversation so far, runs every tool it asks for through `execute`, sends the results
// back, and repeats until the model stops for a reason other than tool_use; returns the whole conversation.
export async function runLoop(
  client: Anthropic,
  execute: Execute,
  request: LoopRequest,
): Promise<Anthropic.MessageParam[]> {
  // Replace this with the loop: client.messages.create({ ...request, messages }), then execute(block.name, block.input).
  throw new Error(
    'runLoop is not written yet (src/agent-loop.ts): call the model, run its tools and send back their results, as the course page "Run the loop" shows',
  );
}
