// Your planning loop, the one file this stage asks you to write (course page "Plan with a todo list").
// Grade it with `npm run watch`: every case fails with the message below until runPlanLoop calls the model.
import type Anthropic from '@anthropic-ai/sdk';
import type { Execute, LoopRequest } from 'theinference';

// Runs the loop of "Run the loop", answering the model's `todo` calls with a todo list of its own (every other call
// goes to `execute`), and puts the reminder last in a round's results after three rounds without a todo call;
// returns the whole conversation.
export async function runPlanLoop(
  client: Anthropic,
  execute: Execute,
  request: LoopRequest,
): Promise<Anthropic.MessageParam[]> {
  // Replace this with the loop of src/agent-loop.ts, a todo handler, and the nag.
  throw new Error(
    'runPlanLoop is not written yet (src/plan-loop.ts): run the loop, answer its todo calls and nag, as the course page "Plan with a todo list" shows',
  );
}
