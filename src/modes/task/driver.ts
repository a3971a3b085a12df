// The driver's mode `task` (stage "Delegate to a subagent"): the loop mode's driver (src/modes/loop/driver.ts),
// parameterised. Its fake Messages API serves the case's turns in order, the parent's and its children's as the
// contract interleaves them, and records every request, a child's as a parent's; the loop is runTaskLoop, the module
// and export the stage's row names. The scripted execute answers the tool_use blocks of the turns served, except
// `task` ones: those are the loop's to answer with a child, so execute waits for none, and a call of it for `task` is
// refused as a call no tool_use asked for. A child's turn is served while the rest of its parent's turn waits: its
// calls come first (`nested`). A tool_use the case gives no output for (a child's last allowed round's) is refused
// too: the contract never runs it. No probe is asked for: the results alone name this stage's mistakes.
import type { DriverMode } from '../driver-mode.ts';
import type { BeforeCall, Json } from '../kit.ts';
import { type LoopCase, type LoopOptions, loopDriver, runLoopCase } from '../loop/driver.ts';
import { TASK_TOOL } from './case.ts';

export const TASK_LOOP: LoopOptions = {
  own: (block: Json) => block.name === TASK_TOOL,
  outputsOptional: true,
  nested: true,
};

type RunLoop = NonNullable<Parameters<typeof runLoopCase>[1]>;

// One case's results, ready to print, through the task loop given (the audit's and the tests').
export function runTaskCase(
  testCase: unknown,
  runTaskLoop: RunLoop,
  beforeTurn?: BeforeCall,
  course?: URL,
): Promise<unknown[]> {
  const data = testCase as LoopCase;
  return runLoopCase({ ...data, outputs: data.outputs ?? {} }, runTaskLoop, beforeTurn, course, TASK_LOOP);
}

export const driver: DriverMode = loopDriver(TASK_LOOP);
