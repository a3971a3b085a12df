// The hint for a loop that ended as the script has it, having called execute for what no tool_use waiting asked
// for, its answer in nothing it sent or returned (the end's `unasked_calls`). Where the call is a tool_use's of a
// turn whose stop_reason ends the loop, and of no turn that asks for tools, the loop ran that turn's tools before
// looking at stop_reason: the scripted execute queues only the tool_use blocks of "tool_use" turns, so it refused
// the call, and the loop threw the answer away. Any other such call is said as it was made. Pure.
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import type { LoopHint } from './loop-features.ts';
import { blocks, hint, type LoopHintContext } from './loop-hint-context.ts';
import { stopReason, unaskedCallsOf, withoutChange, withoutUnasked } from './loop-results.ts';
import { callText } from '../unasked-calls.ts';

const RETURN_FIRST =
  "look at stop_reason right after appending the model's turn, and return there, before running any tool";

export function unaskedCallHint(ctx: LoopHintContext): LoopHint | undefined {
  const calls = (ctx.at === 'end' ? unaskedCallsOf(ctx.received) : undefined) ?? [];
  const [first] = calls;
  if (first === undefined || !jsonEqual(withoutChange(withoutUnasked(ctx.received)), ctx.expected)) return undefined;
  const served = ctx.data.turns.slice(0, ctx.sent?.length ?? ctx.data.turns.length);
  for (const call of calls) {
    const asking = served.flatMap(({ message }, k) =>
      blocks(message)
        .filter((b) => b.type === 'tool_use' && b.name === call.tool && jsonEqual(b.input, call.input))
        .map((b) => ({ id: String(b.id), turn: k + 1, ends: message.stop_reason !== 'tool_use' })),
    );
    const cut = asking[0];
    if (cut === undefined || asking.some((a) => !a.ends)) continue;
    return hint(
      `execute was called for tool_use ${cut.id} of turn ${cut.turn}, whose stop_reason is ${stopReason(ctx.data, cut.turn)}, as ${callText(call)}, and its answer went nowhere: a turn that stops otherwise than "tool_use" ends the loop, its tools are not run; ${RETURN_FIRST}`,
      'ran the tools of a turn that ends the loop',
      'tool-block-ending-turn',
      `execute was called for a tool_use of a turn whose stop_reason is not "tool_use", and its answer went nowhere: such a turn ends the loop, its tools are not run; ${RETURN_FIRST}`,
    );
  }
  return hint(
    `execute was called as ${callText(first)}, which no tool_use waiting for a result asked for, and its answer is in nothing ${ctx.words.entry} sent or returned: call execute once for each tool_use block of a turn whose stop_reason is "tool_use", as execute(block.name, block.input), and send back what it returns`,
    'execute called for no tool_use',
  );
}
