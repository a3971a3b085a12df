// The loop that plans (stage "Plan with a todo list", docs/stages/plan-todos.md): the agent loop of
// src/agent-loop.ts, whose `todo` calls the loop answers itself from a list it keeps, every other call going to
// `execute`; and after three model rounds in a row without a todo call, a reminder after the round's results.
import type Anthropic from '@anthropic-ai/sdk';
import { loopTurns, runTool } from './agent-loop.ts';
import type { Execute } from './contract.ts';
import type { LoopRequest } from './loop-request.ts';

// The tool whose calls the loop answers itself, and the nag's block.
const TODO = 'todo';
const REMINDER: Anthropic.TextBlockParam = { type: 'text', text: '<reminder>Update your todos.</reminder>' };
const ROUNDS_BEFORE_NAG = 3;

type Status = 'pending' | 'in_progress' | 'completed';
type Item = { id: string; text: string; status: Status };

const MARKS: Record<Status, string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]' };

// Runs the loop from `request` and returns the whole conversation, as runLoop does.
export async function runPlanLoop(
  client: Anthropic,
  execute: Execute,
  request: LoopRequest,
): Promise<Anthropic.MessageParam[]> {
  const todos = todoList();
  let rounds = 0;
  return loopTurns(client, request, async (turn) => {
    const results: Anthropic.ContentBlockParam[] = [];
    let planned = false;
    for (const block of turn) {
      if (block.type !== 'tool_use') continue;
      if (block.name !== TODO) {
        results.push(await runTool(execute, block));
        continue;
      }
      planned = true;
      const output = todos.update(block.input);
      results.push({
        type: 'tool_result',
        tool_use_id: block.id,
        content: output.content,
        ...(output.is_error ? { is_error: true } : {}),
      });
    }
    rounds = planned ? 0 : rounds + 1;
    return rounds >= ROUNDS_BEFORE_NAG ? [...results, REMINDER] : results;
  });
}

// The todo tool's handler: each call replaces the whole list, or leaves it as it was and says why not.
export function todoList(): { update: (input: unknown) => { content: string; is_error: boolean } } {
  let items: Item[] = [];
  return {
    update: (input) => {
      const checked = checkItems(input);
      if (typeof checked === 'string')
        return { content: `Error: ${checked}. The list is unchanged:\n${render(items)}`, is_error: true };
      items = checked;
      return { content: render(items), is_error: false };
    },
  };
}

// The items of a call, or the first thing wrong with them.
function checkItems(input: unknown): Item[] | string {
  const given = typeof input === 'object' && input !== null ? (input as { items?: unknown }).items : undefined;
  if (!Array.isArray(given)) return 'items must be an array of { id, text, status }';
  const items: Item[] = [];
  for (const [k, raw] of given.entries()) {
    const item = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const n = k + 1;
    if (typeof item.id !== 'string' || item.id === '') return `item ${n} has no id`;
    if (typeof item.text !== 'string' || item.text === '') return `item ${n} has no text`;
    const status = item.status ?? 'pending';
    if (status !== 'pending' && status !== 'in_progress' && status !== 'completed')
      return `item ${n} has an unknown status ${JSON.stringify(status)}: use pending, in_progress or completed`;
    if (items.some((i) => i.id === item.id))
      return `item ${n} has the id ${JSON.stringify(item.id)} of an earlier item`;
    items.push({ id: item.id, text: item.text, status });
  }
  const doing = items.filter((i) => i.status === 'in_progress');
  if (doing.length > 1)
    return `${doing.length} items are in progress (${doing.map((i) => JSON.stringify(i.id)).join(', ')}): at most one may be`;
  return items;
}

// One line per item, then the count of those completed.
function render(items: Item[]): string {
  const done = items.filter((i) => i.status === 'completed').length;
  return [...items.map((i) => `${MARKS[i.status]} ${i.id}: ${i.text}`), `(${done}/${items.length} completed)`].join(
    '\n',
  );
}
