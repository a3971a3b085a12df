// Your loop with subagents, the one file this stage asks you to write (course page "Delegate to a subagent").
// Start from your runLoop (src/agent-loop.ts). Grade it with `npm run watch`: every case fails with the message below
// until runTaskLoop calls the model.
import type Anthropic from '@anthropic-ai/sdk';
import type { Execute, LoopRequest } from 'theinference';

// Runs your loop, except that a `task` call runs a child loop with a fresh conversation (the prompt alone, the
// subagent's system prompt, the tools without `task`, at most 30 rounds) and its final text is that call's result;
// returns the parent's whole conversation.
export async function runTaskLoop(
  client: Anthropic,
  execute: Execute,
  request: LoopRequest,
): Promise<Anthropic.MessageParam[]> {
  // Replace this with your loop, and a child loop for each task call.
  throw new Error(
    'runTaskLoop is not written yet (src/task-loop.ts): run the loop, and a child loop for each task call, as the course page "Delegate to a subagent" shows',
  );
}
