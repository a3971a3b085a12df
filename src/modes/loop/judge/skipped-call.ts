// The hint for a call the scripted execute refused because an earlier tool_use was still waiting for its own, when
// that earlier tool_use was already answered in a message the loop sent before: the loop answered it without
// calling execute (a name it did not offer, answered by the loop itself), and did not run the calls out of order.
// What proves it: the scripted execute takes each tool_use off its queue when it is called with its name and
// input, so a tool_use still at the head was never called so; its tool_result went out all the same. Pure.
import type { LoopHint } from './loop-features.ts';

type Json = Record<string, unknown>;

// What program.ts's scripted execute answers a call made while an earlier tool_use still waits for its own.
const CALLED_BEFORE =
  /^theinference's scripted execute: execute\(.*\) is tool_use \S+'s call, made before tool_use (\S+)'s, (execute\(.*\))$/s;
// Any answer of the scripted execute to a call it refused: a call made for that tool_use, with other arguments.
const REFUSED = /^theinference's scripted execute: /;

// `g`: a tool_result the loop sent; `earlier`: the tool_results of the messages before it in the same request.
export function skippedCallHint(g: Json, earlier: Json[]): LoopHint | undefined {
  const called = CALLED_BEFORE.exec(typeof g.content === 'string' ? g.content : '');
  if (called === null) return undefined;
  const [, waiting, asked] = called;
  const answered = earlier.find((b) => b.tool_use_id === waiting);
  if (answered === undefined || (typeof answered.content === 'string' && REFUSED.test(answered.content)))
    return undefined;
  const fix =
    'Pass every tool_use to execute(block.name, block.input), whatever its name, and send back what it returns (the dispatcher answers a name it does not know)';
  return {
    text: `tool_use ${waiting} got a tool_result in an earlier message, yet execute was never called for it as ${asked}: your loop answered it itself. ${fix}`,
    cause: 'a tool_use answered without execute',
    shows: 'unknown-tool-turn',
    general: `a tool_use got a tool_result, yet execute was never called for it: your loop answered it itself. ${fix}`,
  };
}
