// The contract's words are written three times, as they must be: on the page (the student's source), in the
// reference (written as a student writes it) and in the mode (what the judge holds a loop to). They agree.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as mode from '../../../src/modes/task/case.ts';
import * as reference from '../../../src/task-loop.ts';
import { REPO } from '../../grade/course-fixture.ts';

describe('the task contract', () => {
  it('has the same words in the reference as in the mode', () => {
    expect(reference.TASK_TOOL).toBe(mode.TASK_TOOL);
    expect(reference.SUBAGENT_SYSTEM).toBe(mode.SUBAGENT_SYSTEM);
    expect(reference.SUBAGENT_MAX_ROUNDS).toBe(mode.SUBAGENT_MAX_ROUNDS);
    expect(reference.NO_SUMMARY).toBe(mode.NO_SUMMARY);
  });

  it('says each of them on the page', async () => {
    const page = await readFile(join(REPO, 'docs', 'stages', 'delegate-task.md'), 'utf8');
    expect(page).toContain(`\`${mode.SUBAGENT_SYSTEM}\``);
    expect(page).toContain(`placeholder \`${mode.NO_SUMMARY}\``);
    expect(page).toContain(`At most ${mode.SUBAGENT_MAX_ROUNDS} rounds`);
    expect(page).toContain(`joined with \`${JSON.stringify(mode.TEXT_JOIN)}\``);
    expect(page).toContain(JSON.stringify(mode.TASK_TOOL_DEFINITION.description));
  });
});
