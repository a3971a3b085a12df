// Whose each request of a task case is, read off its turns by the contract: a table of scripts.
import { describe, expect, it } from 'vitest';
import { requestOwners } from '../../../src/modes/task/judge/request-owners.ts';

type Block = Record<string, unknown>;
const turn = (stop: string, ...content: Block[]) => ({ message: { content, stop_reason: stop } });
const call = (id: string, name = 'Read', input: Block = {}) => ({ type: 'tool_use', id, name, input });
const task = (id: string, prompt: string) => call(id, 'task', { prompt });
const text = { type: 'text', text: 'done' };

describe('requestOwners', () => {
  it('gives every request of a loop without task calls to the parent', () => {
    const owners = requestOwners({ turns: [turn('tool_use', call('a')), turn('end_turn', text)] } as never);
    expect(owners).toEqual([
      { who: 'parent', round: 1 },
      { who: 'parent', round: 2 },
    ]);
  });

  it("puts a child's turns between the parent's, until one stops for another reason", () => {
    const turns = [
      turn('tool_use', task('t1', 'look')),
      turn('tool_use', call('c1')),
      turn('end_turn', text),
      turn('end_turn', text),
    ];
    expect(
      requestOwners({ turns } as never).map((o) => (o.who === 'child' ? `child ${o.task} ${o.round}` : o.who)),
    ).toEqual(['parent', 'child t1 1', 'child t1 2', 'parent']);
  });

  it('runs two task calls of one turn one child after the other', () => {
    const turns = [
      turn('tool_use', task('a', 'A'), task('b', 'B')),
      turn('end_turn', text),
      turn('max_tokens', text),
      turn('end_turn', text),
    ];
    expect(requestOwners({ turns } as never).map((o) => (o.who === 'child' ? o.task : o.who))).toEqual([
      'parent',
      'a',
      'b',
      'parent',
    ]);
  });

  it('ends a child at its 30th turn whatever its stop_reason', () => {
    const child = Array.from({ length: 30 }, (_, k) => turn('tool_use', call(`c${k}`)));
    const owners = requestOwners({
      turns: [turn('tool_use', task('t', 'p')), ...child, turn('end_turn', text)],
    } as never);
    expect(owners).toHaveLength(32);
    expect(owners[30]).toMatchObject({ who: 'child', round: 30 });
    expect(owners[31]).toEqual({ who: 'parent', round: 2 });
  });

  it('runs no child for a task call in a turn that does not stop for tool_use', () => {
    expect(requestOwners({ turns: [turn('max_tokens', task('t', 'p'))] } as never)).toEqual([
      { who: 'parent', round: 1 },
    ]);
  });
});
