// A delegate-task case file (a loop case: cases/agent-loop.schema.json, named by the mode's row in
// src/modes/mode-table.ts) whose turns are the parent's and its children's, in the order the contract asks for them,
// and the words of the contract the grader holds a task loop to (docs/stages/delegate-task.md).
import type { LoopCaseData } from '../loop/case.ts';

// The tool the loop answers itself, by running a child loop: never passed to execute.
export const TASK_TOOL = 'task';

// What the child's requests carry as their system prompt, the most requests a child sends, and the result of a
// child whose last turn has no text. The reference (src/task-loop.ts) writes them as a student does, from the page;
// test/modes/task/task-contract.test.ts holds the two equal.
export const SUBAGENT_SYSTEM =
  'You are a subagent. Complete the task you are given, then summarize what you found or did: your final text is all the agent that called you will see.';
export const SUBAGENT_MAX_ROUNDS = 30;
export const NO_SUMMARY = '(no summary)';
// What joins the text blocks of the child's last turn.
export const TEXT_JOIN = '\n';

// The `task` tool a case's request gives the parent, as the page shows it.
export const TASK_TOOL_DEFINITION = {
  name: TASK_TOOL,
  description:
    'Run a subtask in a subagent with a fresh context and the same tools (without task). Only its final text comes back.',
  input_schema: {
    type: 'object',
    properties: {
      prompt: { type: 'string', description: 'Everything the subagent needs to know to do the subtask.' },
      description: { type: 'string', description: 'A few words saying what the subtask is, for the user.' },
    },
    required: ['prompt'],
  },
};

// A task case is a loop case: the same request, turns and outputs (a `task` tool_use has no output: the loop
// answers it; a tool_use of a child's last allowed round has none either, as the contract never runs it).
export type TaskCaseData = LoopCaseData;
