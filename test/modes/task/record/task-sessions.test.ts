// A Claude Code session read as delegate-task cases, from the real sessions in ../shared/transcripts/: a Task call
// with its subagent's transcript beside the session, and Task calls whose subagents left their final text alone.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTaskSession } from '../../../../src/modes/task/record/task-sessions.ts';
import { requestOwners } from '../../../../src/modes/task/judge/request-owners.ts';
import { REPO } from '../../../grade/course-fixture.ts';

const TRANSCRIPTS = join(REPO, '..', 'shared', 'transcripts', 'claude-code');

describe('readTaskSession', () => {
  it("interleaves a subagent's own turns, from its subagents/ file, after the parent's task call", async () => {
    const read = await readTaskSession(
      join(TRANSCRIPTS, 'spotter', 'fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl'),
      'recorded-fa812bfe',
    );
    expect(read.drafts.map((d) => d.name)).toEqual(['recorded-fa812bfe', 'recorded-fa812bfe-from-task']);
    const [whole] = read.drafts;
    expect(whole!.children.map((c) => [c.agentId, c.from, c.turns.length])).toEqual([
      ['a93ccab', 'subagents/agent-a93ccab.jsonl', 11],
    ]);
    const owners = requestOwners(whole!.data);
    expect(owners).toHaveLength(whole!.data.turns.length);
    expect(owners.filter((o) => o.who === 'child')).toHaveLength(11);
    // The Task call is the stage's task call: its prompt and description, nothing of Claude Code's own.
    const call = whole!.data.turns.flatMap((t) => t.message.content).find((b) => b.name === 'task');
    expect(Object.keys(call!.input as object).sort()).toEqual(['description', 'prompt']);
    expect(whole!.data.request.tools.map((t) => t.name)).toContain('task');
    expect(whole!.data.request.tools.map((t) => t.name)).not.toContain('Task');
  });

  it('gives a subagent without a transcript one turn of its recorded final text, and says so', async () => {
    const read = await readTaskSession(join(TRANSCRIPTS, 'entire', 'eb-dc-49cb8a2a42-0.jsonl'), 'recorded-eb-dc');
    const [first] = read.drafts;
    expect(first!.children).toHaveLength(2);
    for (const child of first!.children) {
      expect(child.turns).toHaveLength(1);
      expect(child.from).toMatch(/^its final text alone/);
      expect(child.unrecordedCalls).toBeGreaterThan(0);
    }
    expect(requestOwners(first!.data).map((o) => o.who)).toEqual(['parent', 'parent', 'child', 'child', 'parent']);
  });
});
