// The driver's mode `task` (stage "Delegate to a subagent"): the loop mode's fake Messages API, real client and
// scripted execute (src/modes/loop/driver.ts), run on runTaskLoop from the course's src/task-loop.ts. The API serves
// the case's turns in order, the parent's and its children's as the contract interleaves them, and records every
// request, a child's as a parent's. The scripted execute answers the tool_use blocks of the turns served in order,
// except `task` ones: those are the loop's to answer with a child, so execute waits for none, and a call of it for
// `task` is refused as a call no tool_use asked for. A child's turn is served while the rest of its parent's turn
// waits: its calls come first (`nested`). A tool_use the case gives no output for (a child's last allowed
// round's) is refused too: the contract never runs it. No probe: the results alone name this stage's mistakes.
import type { DriverMode } from '../driver-mode.ts';
import { type BeforeCall, courseExports, type Json } from '../kit.ts';
import { type LoopShape, parseLoopCase, runLoopCase } from '../loop/driver.ts';
import { TASK_ENTRY, TASK_MODULE, TASK_TOOL } from './case.ts';

export const TASK_LOOP: LoopShape = {
  module: TASK_MODULE,
  entry: TASK_ENTRY,
  own: (block: Json) => block.name === TASK_TOOL,
  outputsOptional: true,
  nested: true,
};

type RunLoop = NonNullable<Parameters<typeof runLoopCase>[1]>;

// One case's results, ready to print: through `runTaskLoop`, the student's by default.
export function runTaskCase(
  testCase: unknown,
  runTaskLoop?: RunLoop,
  beforeTurn?: BeforeCall,
  course?: URL,
): Promise<unknown[]> {
  return runLoopCase(testCase as never, runTaskLoop, beforeTurn, course, TASK_LOOP);
}

export const driver: DriverMode = {
  start: async (course) => {
    const exports = await courseExports<Record<string, RunLoop>>(course, TASK_MODULE, [TASK_ENTRY]);
    const loop = exports[TASK_ENTRY] as RunLoop;
    return {
      parse: (text) => parseLoopCase(text, TASK_LOOP),
      run: (testCase, beforeCall) => runTaskCase(testCase, loop, beforeCall, course),
      cannot: 'cannot run case',
    };
  },
};
