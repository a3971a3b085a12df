// The record report as a course author reads it: what was skipped and where, what was redacted (counted in words),
// the first divergence of each kind before any second of one kind, and no stray blank lines.
import { describe, expect, it } from 'vitest';
import type { Built } from '../../../src/record/replay/build-cases.ts';
import type { Step } from '../../../src/record/map/prepare-steps.ts';
import type { TranscriptReport } from '../../../src/record/record-types.ts';
import { renderRecordReport } from '../../../src/record/write/render-report.ts';
import { reportFor } from '../../../src/record/write/report.ts';
import type { ReplayVerdict } from '../../../src/record/replay/verify-result.ts';
import { call, transcript } from '../calls.ts';

const REPORT: TranscriptReport = {
  transcript: 'session.jsonl',
  format: 'claude-code',
  seen: 3,
  mapped: 0,
  replayed: 0,
  kept: 0,
  dropped: { 'no recorded result': 3 },
  subagentFiles: 0,
  skipped: [],
  cases: [],
  seeds: {},
  redactions: {},
  reproduced: 0,
  divergences: [],
  droppedCalls: [],
};
const render = (r: Partial<TranscriptReport>): string[] =>
  renderRecordReport([{ ...REPORT, ...r }], [], { stage: 'register-tools', color: false }).split('\n');

describe('renderRecordReport, in detail', () => {
  const divergence = (n: number) => ({
    id: `toolu_${n}`,
    tool: 'Bash',
    reason: 'Bash: a different exit code',
    recorded: 'exit 0',
    replayed: 'exit 127',
  });
  const many = {
    replayed: 5,
    divergences: [1, 2, 3, 4, 5].map(divergence),
    droppedCalls: [
      { id: 'toolu_1', tool: 'Bash', reason: 'did not reproduce: Bash: a different exit code' },
      { id: 'toolu_9', tool: 'TodoWrite', reason: "not in the course's toolset: TodoWrite" },
    ],
  };

  it('shows the first three divergences and says how many more there are', () => {
    const lines = render(many);
    expect(lines.filter((l) => l.startsWith('    Bash toolu_'))).toHaveLength(3);
    expect(lines).toContain('    2 more divergences (--divergences all shows every one)');
    expect(lines.some((l) => l.includes('TodoWrite toolu_9'))).toBe(false);
  });

  it('with --divergences all, shows every one', () => {
    const lines = renderRecordReport([{ ...REPORT, ...many }], [], {
      stage: 'register-tools',
      color: false,
      divergences: 'all',
    }).split('\n');
    expect(lines.filter((l) => l.startsWith('    Bash toolu_'))).toHaveLength(5);
    expect(lines.some((l) => l.includes('more divergence'))).toBe(false);
  });

  it('with --verbose, lists every dropped call: its tool, id and reason', () => {
    const lines = renderRecordReport([{ ...REPORT, ...many }], [], {
      stage: 'register-tools',
      color: false,
      verbose: true,
    }).split('\n');
    expect(lines).toContain("                  TodoWrite toolu_9: not in the course's toolset: TodoWrite");
    expect(lines).toContain('                  Bash toolu_1: did not reproduce: Bash: a different exit code');
  });
});

describe('renderRecordReport', () => {
  it('names every file a case writes: the case, its snapshot and, for a recorded one, its recording', () => {
    const written = (name: string, recordingText?: string) =>
      ({
        name,
        caseText: '',
        snapshotText: '',
        status: 'added' as const,
        ...(recordingText === undefined ? {} : { recordingText }),
        data: { description: '', calls: [] },
      }) as never;
    const lines = renderRecordReport([], [written('a', '{}'), written('b')], { stage: 's', color: false }).split('\n');
    expect(lines).toContain('added         cases/s/a.json, snapshots/s/a.json, recordings/s/a.json');
    expect(lines).toContain('added         cases/s/b.json, snapshots/s/b.json');
  });

  it("shows the transcript's control characters instead of letting them act: session id, reasons, divergences", () => {
    const text = render({
      sessionId: 'ab\u001b[2Jcd',
      dropped: { "not in the course's toolset: Evil\u001b]0;title\u0007": 1 },
      replayed: 1,
      divergences: [
        {
          id: 'toolu_1\u202e',
          tool: 'Bash',
          reason: 'Bash: different output',
          recorded: 'exit 0\n\u001b[31mred',
          replayed: 'exit 0\nred',
        },
      ],
    }).join('\n');
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(text).toContain('(claude-code, session ab\u241b[2Jcd)');
    expect(text).toContain("not in the course's toolset: Evil\u241b]0;title\u2407");
    expect(text).toContain('Bash toolu_1\\u202e: Bash: different output');
    expect(text).toContain('\u241b[31mred');
  });

  it('says where skipped input is: the line (the first of several), or the file left out whole', () => {
    const lines = render({
      skipped: [
        { reason: 'not valid JSON', count: 3, wholeFiles: false, first: 'line 4' },
        { reason: 'compact boundary', count: 1, wholeFiles: false, first: 'agent-a1.jsonl line 9' },
        {
          reason: 'a compaction summariser, not part of the session',
          count: 1,
          wholeFiles: true,
          first: 'agent-acompact-1.jsonl',
        },
      ],
    });
    expect(lines).toContain('  skipped      3  lines, the first line 4: not valid JSON');
    expect(lines).toContain('               1  agent-a1.jsonl line 9: compact boundary');
    expect(lines).toContain(
      '               1  file agent-acompact-1.jsonl: a compaction summariser, not part of the session',
    );
  });

  it('counts what is past the first few reasons instead of a row each', () => {
    const skipped = Array.from({ length: 8 }, (_, i) => ({
      reason: `not valid JSON (at position ${i})`,
      count: 1,
      wholeFiles: false,
      first: `line ${i + 1}`,
    }));
    const lines = render({ skipped });
    expect(lines.filter((l) => l.includes('not valid JSON'))).toHaveLength(5);
    expect(lines).toContain('               3  more, for 3 other reasons');
  });

  it('counts redactions in words', () => {
    const lines = render({
      redactions: {
        'e-mail address': 11,
        'home directory': 2,
        'user name': 1,
        'private key': 2,
        '--redact ACME-\\d+': 2,
      },
    });
    expect(lines).toContain(
      '  redacted  11 e-mail addresses, 2 home directories, 1 user name, 2 private keys, 2 matches of --redact ACME-\\d+',
    );
  });

  it('names the subagent files read with a session', () => {
    expect(render({ subagentFiles: 2, sessionId: 'fa812bfe' })[0]).toBe(
      'session.jsonl (claude-code, session fa812bfe, with 2 subagent files)',
    );
  });

  it('leaves one blank line before the yield when no case was made', () => {
    const lines = render({});
    expect(lines.slice(-4)).toEqual([
      '  fidelity  no call was replayed',
      '',
      'yield: 0 of 3 calls (0 %) are in replay-verified cases',
      '',
    ]);
  });
});

describe('reportFor', () => {
  const none: Built = { drafts: [], dropped: new Map(), replayed: new Set(), divergences: new Map() };
  const quiet = { text: (s: string) => s, counts: {} };

  it('groups skipped input by reason with where the first is: a line of the main file, or a whole file by name', () => {
    const skipped = [
      { file: '/work/s/session.jsonl', line: 4, reason: 'not valid JSON' },
      { file: '/work/s/session.jsonl', line: 9, reason: 'not valid JSON' },
      { file: '/work/s/session/subagents/agent-a1.jsonl', line: 2, reason: 'compact boundary' },
      { file: '/work/s/session/subagents/agent-acompact-1.jsonl', line: 0, reason: 'a compaction summariser' },
    ];
    const t = transcript([], { files: ['session.jsonl', '/work/s/session/subagents/agent-a1.jsonl'], skipped });
    const report = reportFor({ transcript: t, steps: [], built: none, redactor: quiet }, { cases: [] });
    expect(report.subagentFiles).toBe(1);
    expect(report.skipped).toEqual([
      { reason: 'not valid JSON', count: 2, wholeFiles: false, first: 'line 4' },
      { reason: 'compact boundary', count: 1, wholeFiles: false, first: 'agent-a1.jsonl line 2' },
      { reason: 'a compaction summariser', count: 1, wholeFiles: true, first: 'agent-acompact-1.jsonl' },
    ]);
  });

  it('keeps the first divergence of each kind before any second of one kind', () => {
    const calls = [
      call('Bash', { command: 'mix test' }, 'ok'),
      call('Bash', { command: 'mix format' }, 'ok'),
      call('Grep', { pattern: 'x' }, 'a.ex'),
      call('Bash', { command: 'ls' }, 'a'),
    ];
    const steps = calls.map(
      (imported, position) =>
        ({ position, imported, subdir: '', evidence: { before: new Map(), changes: [] }, ran: true }) as Step,
    );
    const differ = (reason: string): ReplayVerdict => ({ ok: false, reason, recorded: 'r', replayed: 'p' });
    const built: Built = {
      drafts: [],
      dropped: new Map(),
      replayed: new Set([0, 1, 2, 3]),
      divergences: new Map([
        [0, differ('Bash: a different exit code')],
        [1, differ('Bash: a different exit code')],
        [2, differ('Grep: different files')],
        [3, differ('Bash: different output')],
      ]),
    };
    const report = reportFor({ transcript: transcript(calls), steps, built, redactor: quiet }, { cases: [] });
    expect(report.divergences.map((d) => d.reason)).toEqual([
      'Bash: a different exit code',
      'Grep: different files',
      'Bash: different output',
      'Bash: a different exit code',
    ]);
  });
});
