// The vocabulary of the stage "Plan with a todo list" (docs/stages/plan-todos.md), said once: the tool whose calls
// the student's loop answers itself, its statuses and marks, the nag's block and after how many rounds it comes,
// and the handler's words. Its case files are loop cases (src/modes/loop/case.ts): a todo tool_use has no scripted
// output, since execute never answers one. The student's reference (src/plan-loop.ts) writes the same words, as a
// student does from the page; test/modes/plan/ holds the two equal.
import type { ApiObject, LoopCaseData } from '../loop/case.ts';
import type { LoopOptions } from '../loop/options.ts';

export type PlanCaseData = LoopCaseData;

export const TODO_TOOL = 'todo';

// What the plan mode changes of the loop mode's driver: the tool its loop answers itself.
export const PLAN_OPTIONS: LoopOptions = { ownTools: [TODO_TOOL] };

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];
export const TODO_MARKS: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]' };

export const REMINDER_TEXT = '<reminder>Update your todos.</reminder>';
export const ROUNDS_BEFORE_NAG = 3;
export const UNCHANGED = 'The list is unchanged:';

// The todo tool as a case's request offers it to the model.
export const TODO_TOOL_DEFINITION: ApiObject = {
  name: TODO_TOOL,
  description:
    'Replaces your todo list with the items given and returns it. Use it to plan a task of several steps and to keep the plan current: mark an item in_progress before you start it (one at a time) and completed when it is done.',
  input_schema: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        description: 'The whole list, in order: each call replaces the one before.',
        items: {
          type: 'object',
          properties: {
            id: { type: 'string', description: 'Unique within the list.' },
            text: { type: 'string', description: 'What to do.' },
            status: { type: 'string', enum: [...TODO_STATUSES], description: 'pending when left out.' },
          },
          required: ['id', 'text'],
        },
      },
    },
    required: ['items'],
  },
};
