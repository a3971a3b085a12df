// The hint for a turn that calls one tool twice or more, whose tool_results all carry one output: the one execute
// gave for one of those calls. A loop that keeps execute's outputs under the tool's name (outputs[block.name])
// holds one output per name, so every call of that name gets the last. The results show only that the calls got
// one output; that it was kept by name is the likely cause, so the hint asks rather than says. Pure.
import type { LoopCaseData } from '../case.ts';
import type { LoopHint } from './loop-features.ts';
import { isEntry } from './loop-results.ts';

type Json = Record<string, unknown>;

const FIX = "Keep each output with its own tool_use (by block.id, not block.name), so each call's result holds its own";

// `want` and `got`: the results of turn `turn` as the script has them and as the loop sent them. Undefined unless
// they answer the same tool_uses in the same order (the ids' hints come first).
export function sameToolHint(data: LoopCaseData, turn: number, want: Json[], got: Json[]): LoopHint | undefined {
  if (got.length !== want.length || want.some((w, j) => w.tool_use_id !== got[j]!.tool_use_id)) return undefined;
  const names = toolNames(data);
  const byName = new Map<string, number[]>();
  for (const [j, w] of want.entries()) {
    const name = names.get(String(w.tool_use_id));
    if (name !== undefined) byName.set(name, [...(byName.get(name) ?? []), j]);
  }
  for (const [name, calls] of byName) {
    if (calls.length < 2) continue;
    const outputs = calls.map((j) => {
      const output = data.outputs?.[String(want[j]!.tool_use_id)];
      return output !== undefined && 'content' in output ? output.content : undefined;
    });
    const texts = new Set(outputs);
    if (texts.has(undefined) || texts.size < 2) continue;
    const sent = got[calls[0]!]!.content;
    const from = outputs.indexOf(sent as string);
    if (from === -1 || calls.some((j) => got[j]!.content !== sent)) continue;
    const id = String(want[calls[from]!]!.tool_use_id);
    return {
      text: `the ${calls.length} calls of ${name} in turn ${turn} got the same tool_result, the output execute gave for tool_use ${id}: outputs kept by the tool's name (outputs[block.name])? ${FIX}`,
      cause: 'calls of one tool got one output',
      shows: 'same-tool-turn',
      general: `two calls of one tool in one turn got the same tool_result, the output execute gave for one of them: outputs kept by the tool's name (outputs[block.name])? ${FIX}`,
    };
  }
  return undefined;
}

// Each tool_use's name, by its id, across the script's turns.
function toolNames(data: LoopCaseData): Map<string, string> {
  const uses = data.turns.flatMap((t) => t.message.content).filter((b) => isEntry(b) && b.type === 'tool_use');
  return new Map(uses.map((b) => [String(b.id), String(b.name)]));
}
