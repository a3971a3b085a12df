// The Claude Code importer on real sessions: what each transcript holds, checked against the files themselves.
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, beforeEach } from 'vitest';
import { importTranscript } from '../../../src/record/import-transcript.ts';
import {
  callById,
  countByName,
  fixture,
  hasSharedTranscripts,
  imported,
  shared,
  needsSharedTranscripts,
} from './transcript-files.ts';

const SPOTTER = 'claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46';
const SPOTTER_CWD = '/home/USER/projects/spotter-worktrees/spotter-a0y';

describe('the spotter session (3.4 MB, two subagents, a compaction)', async () => {
  beforeEach(needsSharedTranscripts);
  const session = hasSharedTranscripts ? imported(await importTranscript(shared(`${SPOTTER}.jsonl`))) : undefined;
  const t = session as NonNullable<typeof session>;

  it('brings its subagent files, leaving out the compaction summariser', () => {
    expect(t.format).toBe('claude-code');
    expect(t.files).toEqual([
      shared(`${SPOTTER}.jsonl`),
      shared(`${SPOTTER}/subagents/agent-a93ccab.jsonl`),
      shared(`${SPOTTER}/subagents/agent-aa84377.jsonl`),
    ]);
    expect(t.skipped).toContainEqual({
      file: shared(`${SPOTTER}/subagents/agent-acompact-70d8e7.jsonl`),
      line: 0,
      reason: 'a compaction summariser, not part of the session',
    });
  });

  it('counts every call per tool and per agent, each subagent call once although agent_progress repeats it', () => {
    expect(t.calls).toHaveLength(243);
    expect(countByName(t.calls.filter((c) => c.agent === undefined))).toEqual({
      Bash: 76,
      Edit: 50,
      Read: 33,
      Write: 12,
      Grep: 12,
      Glob: 11,
      Task: 2,
      TaskOutput: 1,
    });
    expect(countByName(t.calls.filter((c) => c.agent === 'a93ccab'))).toEqual({ Read: 18, Glob: 3, Grep: 3, Bash: 1 });
    expect(countByName(t.calls.filter((c) => c.agent === 'aa84377'))).toEqual({ Glob: 9, Read: 11, Bash: 1 });
    expect(new Set(t.calls.map((c) => c.id)).size).toBe(243);
    expect(t.calls.filter((c) => c.agent !== undefined).every((c) => c.file.includes('/subagents/agent-a'))).toBe(true);
  });

  it("places each subagent's calls right after the Task call that started it", () => {
    const index = (id: string): number => t.calls.findIndex((c) => c.id === id);
    const first = t.calls.findIndex((c) => c.agent === 'a93ccab');
    expect(first).toBe(index('toolu_01Y64XEaRvUYinzv9rW9qZXd') + 1);
    expect(t.calls.slice(first, first + 25).every((c) => c.agent === 'a93ccab')).toBe(true);
    expect(t.calls.findIndex((c) => c.agent === 'aa84377')).toBe(index('toolu_013mmyY3eDBg4Ji6oAszYt6p') + 1);
  });

  it('pairs a parallel group by id although its results come back out of order', () => {
    const group = t.calls.filter((c) => c.messageId === 'msg_01AWnfG6ZAVkzdXi37eWsukL');
    expect(group.map((c) => [c.line, c.result?.line])).toEqual([
      [739, 747],
      [740, 750],
      [741, 744],
    ]);
    for (const call of group) {
      const details = call.result?.details as { file: { filePath: string } };
      expect(details.file.filePath).toBe(call.input?.file_path);
    }
  });

  it('keeps the largest parallel group whole: six Reads of one message', () => {
    expect(t.calls.filter((c) => c.messageId === 'msg_01MkW3V7kD9igGf4ZSZPz3Xq').map((c) => c.name)).toEqual(
      Array(6).fill('Read'),
    );
  });

  it('marks the call a PreToolUse hook blocked as not run, and no call that failed on its own', () => {
    const blocked = callById(t, 'toolu_01ExXDymFKm57aBfmvtknDW8');
    expect(blocked.notRun).toMatch(/^blocked by a PreToolUse hook: Pre-commit validation failed:/);
    expect(t.calls.filter((c) => c.notRun !== undefined)).toEqual([blocked]);
    expect(t.calls.filter((c) => c.result?.isError === true)).toHaveLength(8);
  });

  it('skips the compact boundary and the compact summary, and nothing else', () => {
    expect(t.skipped.filter((s) => s.file === t.files[0])).toEqual([
      { file: t.files[0], line: 1584, reason: 'compact boundary (the conversation was compacted here)' },
      { file: t.files[0], line: 1585, reason: 'compact summary (the conversation so far, retold after a compaction)' },
    ]);
  });

  it('reads a tool_use with the extra `caller` key as any other', () => {
    expect(callById(t, 'toolu_01Xs5NmmSsnDLJYtViAMcnTv').input).toEqual({
      file_path: `${SPOTTER_CWD}/lib/spotter/transcripts/jobs/sync_transcripts.ex`,
    });
  });

  it('gives every call its result, its cwd and the session facts', () => {
    expect(t.calls.every((c) => c.result !== undefined && c.cwd === SPOTTER_CWD && c.timestamp !== undefined)).toBe(
      true,
    );
    expect(t).toMatchObject({
      sessionId: 'fa812bfe-b295-4cca-9c2f-fdf01028cb46',
      cwd: SPOTTER_CWD,
      startedAt: '2026-02-12T15:36:08.028Z',
      endedAt: '2026-02-12T16:17:55.991Z',
    });
  });

  it("keeps the evidence seeds need (a Read's file, an Edit's originalFile, a Write's content) without structuredPatch", () => {
    const read = t.calls.find((c) => c.name === 'Read' && c.agent === undefined)?.result?.details as {
      file: Record<string, unknown>;
    };
    expect(Object.keys(read.file).sort()).toEqual(['content', 'filePath', 'numLines', 'startLine', 'totalLines']);
    const edit = t.calls.find((c) => c.name === 'Edit')?.result?.details as Record<string, unknown>;
    expect(typeof edit.originalFile).toBe('string');
    expect(edit).not.toHaveProperty('structuredPatch');
    const write = t.calls.find((c) => c.name === 'Write')?.result?.details as Record<string, unknown>;
    expect(write).toMatchObject({ type: 'create', content: expect.any(String) });
  });

  it('a subagent file given alone imports alone', async () => {
    const alone = imported(await importTranscript(shared(`${SPOTTER}/subagents/agent-aa84377.jsonl`)));
    expect(alone.files).toHaveLength(1);
    expect(alone.calls).toHaveLength(21);
    const globs = alone.calls.filter((c) => c.messageId === 'msg_0171khr56GGHwQW675wknGqD');
    expect(globs.map((c) => [c.line, c.result?.line])).toEqual([
      [3, 8],
      [4, 12],
      [5, 17],
      [9, 20],
      [13, 23],
      [14, 26],
    ]);
  });

  it('keeps the calls only agent_progress shows when the subagent files are missing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'theinference-import-'));
    try {
      await copyFile(shared(`${SPOTTER}.jsonl`), join(dir, 'session.jsonl'));
      const alone = imported(await importTranscript(join(dir, 'session.jsonl')));
      expect(alone.files).toEqual([join(dir, 'session.jsonl')]);
      expect(alone.calls).toHaveLength(243);
      expect(
        alone.calls
          .filter((c) => c.agent === 'a93ccab')
          .every((c) => c.file === join(dir, 'session.jsonl') && c.result !== undefined),
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the claude-reliability sessions', () => {
  beforeEach(needsSharedTranscripts);
  it('hello-world-script: a Write that creates hello.sh, then the Bash that runs it', async () => {
    const t = imported(
      await importTranscript(shared('claude-code/claude-reliability/hello-world-script/transcript.jsonl')),
    );
    expect(t.calls.map((c) => c.name)).toEqual(['Write', 'Bash']);
    expect(t.calls[0]?.input).toEqual({
      file_path: '/tmp/tmp74wiyiny/hello.sh',
      content: '#!/bin/bash\necho "Hello world"\n',
    });
    expect(t.calls[0]?.result?.details).toMatchObject({ type: 'create', originalFile: null });
    expect(t.cwd).toBe('/tmp/tmp74wiyiny');
  });

  it('python-to-rust-port: 39 calls, two parallel pairs, a Task with no subagent files', async () => {
    const t = imported(
      await importTranscript(shared('claude-code/claude-reliability/python-to-rust-port/transcript.jsonl')),
    );
    expect(countByName(t.calls)).toEqual({ Bash: 16, TodoWrite: 10, Write: 7, Read: 3, Edit: 1, Glob: 1, Task: 1 });
    const groups = new Map<string, number>();
    for (const c of t.calls) groups.set(c.messageId ?? '', (groups.get(c.messageId ?? '') ?? 0) + 1);
    expect([...groups.values()].filter((n) => n > 1)).toEqual([2, 2]);
    expect(t.files).toHaveLength(1);
    expect(t.calls.every((c) => c.result !== undefined && c.notRun === undefined)).toBe(true);
  });
});

describe('the spotter fixtures (copied into test/fixtures)', () => {
  it('short.jsonl: two parallel calls the user rejected are not run', async () => {
    const t = imported(await importTranscript(fixture('spotter/short.jsonl')));
    expect(t.calls.map((c) => [c.name, c.notRun])).toEqual([
      ['Bash', 'rejected by the user'],
      ['Glob', 'rejected by the user'],
    ]);
  });

  it('tool_heavy.jsonl: a WebSearch and a Glob in parallel, the Glob answered first', async () => {
    const t = imported(await importTranscript(fixture('spotter/tool_heavy.jsonl')));
    expect(countByName(t.calls)).toEqual({ Bash: 2, WebSearch: 1, WebFetch: 1, Glob: 1, Read: 1 });
    expect([
      callById(t, 'toolu_01DKTWcKpZ2ksZQmoKKfxiw6').result?.line,
      callById(t, 'toolu_01JJds55jYrYwd9TktNGndRY').result?.line,
    ]).toEqual([33, 32]);
    expect(callById(t, 'toolu_01JJds55jYrYwd9TktNGndRY').result?.content).toMatch(
      /^\/home\/marco\/projects\/spotter\/assets\/js\//,
    );
  });
});

describe('constructed Claude Code lines', () => {
  it('marks the siblings a failing parallel call cancelled as not run, not the failing call itself', async () => {
    const t = imported(await importTranscript(fixture('claude-code-constructed/parallel-cancel.jsonl')));
    expect(t.calls.map((c) => c.notRun)).toEqual([
      undefined,
      'cancelled: the parallel call Bash(npm run build) failed',
      'cancelled: the parallel call Bash(npm run build) failed',
      undefined,
      undefined,
    ]);
  });

  it('follows a mid-session cwd change: each call has the cwd of the line that made it', async () => {
    const t = imported(await importTranscript(fixture('claude-code-constructed/parallel-cancel.jsonl')));
    expect(t.cwd).toBe('/home/alice/projects/shop');
    expect(t.calls.map((c) => c.cwd)).toEqual([
      ...Array(4).fill('/home/alice/projects/shop'),
      '/home/alice/projects/shop/assets',
    ]);
  });

  it('reads claude -p stream-json: init cwd, results paired by id, the subagent by parent_tool_use_id, denials not run', async () => {
    const t = imported(await importTranscript(fixture('claude-stream-json/stream-json.jsonl')));
    expect(t).toMatchObject({
      format: 'claude-code',
      cwd: '/tmp/claude-demo',
      sessionId: '4f1c2a7e-9b3d-4c52-8e61-0a7d2b9c5e13',
    });
    expect(t.calls.map((c) => [c.name, c.result?.line, c.agent, c.notRun])).toEqual([
      ['Glob', 4, undefined, undefined],
      ['Read', 3, undefined, undefined],
      ['Task', 8, undefined, undefined],
      ['Glob', 7, 'toolu_01SJ000000000000000000003', undefined],
      ['Write', 10, undefined, "denied by Claude Code's permission settings"],
    ]);
    expect(t.calls[1]?.result?.details).toMatchObject({ file: { numLines: 4, totalLines: 4 } });
  });
});
