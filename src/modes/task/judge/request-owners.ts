// Whose each request of a task case is, as the contract orders them: the parent's, or a child's (which task call,
// which of its rounds). Read off the case's turns alone, by running the contract over them: a parent turn that
// stops for tool_use starts a child for each of its `task` calls, in the blocks' order, each taking the turns after
// it until one stops for another reason or its 30th; then the parent's next request. Pure.
import type { TaskCaseData } from '../case.ts';
import { SUBAGENT_MAX_ROUNDS, TASK_TOOL } from '../case.ts';

export type Owner =
  | { who: 'parent'; round: number }
  | { who: 'child'; task: string; prompt: unknown; round: number; child: number };

type Block = Record<string, unknown>;

// One owner per request the contract sends for the case's turns (the last turn's answer ends the parent).
export function requestOwners(data: Pick<TaskCaseData, 'turns'>): Owner[] {
  const owners: Owner[] = [];
  let next = 0;
  let children = 0;
  const turn = (): { content: Block[]; stop_reason: unknown } | undefined => data.turns[next]?.message;
  const run = (child: { task: string; prompt: unknown } | undefined): void => {
    const number = child === undefined ? 0 : ++children;
    for (let round = 1; next < data.turns.length; round += 1) {
      owners.push(child === undefined ? { who: 'parent', round } : { who: 'child', ...child, round, child: number });
      const served = turn()!;
      next += 1;
      if (served.stop_reason !== 'tool_use') return;
      if (child !== undefined && round >= SUBAGENT_MAX_ROUNDS) return;
      if (child !== undefined) continue;
      for (const block of served.content) {
        if (block.type === 'tool_use' && block.name === TASK_TOOL) {
          const input = block.input as Block | undefined;
          run({ task: String(block.id), prompt: input?.prompt });
        }
      }
    }
  };
  run(undefined);
  return owners;
}

// The owners of a case's requests, with that of the request its API error answers when it has one: whose request
// the contract sends after the last turn.
export function requestOwnersWithApiError(data: Pick<TaskCaseData, 'turns' | 'api_error'>): Owner[] {
  if (data.api_error === undefined) return requestOwners(data);
  return requestOwners({ turns: [...data.turns, { message: { content: [], stop_reason: 'end_turn' } }] });
}

// "the child's request 2 (task toolu_…)" or "the parent's request 3", for a message.
export function ownerName(owner: Owner | undefined): string {
  if (owner === undefined) return 'a request the script does not have';
  if (owner.who === 'parent') return `the parent's request ${owner.round}`;
  return `the child's request ${owner.round} (task ${owner.task})`;
}
