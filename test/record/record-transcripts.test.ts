// The whole pipeline on every real transcript in ../shared/transcripts/: what is kept, dropped and redacted per
// transcript; every case written validates with the course's own loader, carries nothing of the recording
// machine, and grades green against the reference as a student's course directory would be graded; the yield.
import { cp, mkdir, mkdtemp, readdir, readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCases } from '../../src/course/load-cases.ts';
import { importTranscript } from '../../src/record/import-transcript.ts';
import { recordTranscripts, type RecordOutcome } from '../../src/record/record-transcripts.ts';
import { unportable } from '../../src/record/replay/build-cases.ts';
import type { TranscriptReport } from '../../src/record/record-types.ts';
import type { ImportedTranscript } from '../../src/record/types.ts';
import { REPO, useScratch } from '../grade/course-fixture.ts';
import { gradeRecorded } from '../support/grade-recorded.ts';
import { SANDBOX } from '../support/isolation.ts';
import { hasSharedTranscripts, imported, shared } from './formats/transcript-files.ts';

const STAGE = 'register-tools';
const FILES = {
  hello: 'claude-code/claude-reliability/hello-world-script/transcript.jsonl',
  port: 'claude-code/claude-reliability/python-to-rust-port/transcript.jsonl',
  spotter: 'claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46.jsonl',
  short: 'claude-code/spotter/short.jsonl',
  heavy: 'claude-code/spotter/tool_heavy.jsonl',
};
// What identifies the machines these sessions were recorded on (the spotter author redacted his own as USER in
// most places, not all).
const MACHINE = [
  /\/home\/(?!user\b)[^/\s"]+/,
  /\bmarco\b/i,
  /\/tmp\/tmp74wiyiny|\/tmp\/tmpqwh7888i/,
  // Any e-mail address but the made-up ones the python-to-rust-port project's own tests hold (its validation
  // tests check `user@domain.org` and `user.name+tag@sub.domain.com`): those are the project's, kept as it has them.
  /[\w.+-]+@(?!example\.com|domain\.org|sub\.domain\.com)[\w-]+(\.[\w-]+)*\.[A-Za-z]{2,}\b/,
];

const scratch = useScratch();

describe.skipIf(!hasSharedTranscripts)('recordTranscripts on the real transcripts', () => {
  let dir: string;
  let outcome: RecordOutcome;
  const report = (key: keyof typeof FILES): TranscriptReport => {
    const found = outcome.reports.find((r) => r.transcript.endsWith(FILES[key]));
    if (found === undefined) throw new Error(`no report for ${FILES[key]}`);
    return found;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(scratch.root, 'courses', 'recorded-'));
    await mkdir(join(dir, 'cases'), { recursive: true });
    await cp(join(REPO, 'cases', 'case.schema.json'), join(dir, 'cases', 'case.schema.json'));
    const transcripts: ImportedTranscript[] = [];
    for (const file of Object.values(FILES)) transcripts.push(imported(await importTranscript(shared(file))));
    outcome = await recordTranscripts(transcripts, {
      stage: STAGE,
      maxCalls: 25,
      bash: 'reproducible',
      redact: [],
      // As the CLI does: the machine running `record` is redacted too.
      machine: { user: userInfo().username, home: userInfo().homedir },
      root: REPO,
      sandbox: SANDBOX,
      dir,
      dryRun: false,
      force: false,
      env: process.env,
    });
  }, 120_000);

  it('keeps at least 40 % of all tool calls in replay-verified cases', () => {
    const seen = outcome.reports.reduce((n, r) => n + r.seen, 0);
    const kept = outcome.reports.reduce((n, r) => n + r.kept, 0);
    expect(seen).toBe(292);
    expect(kept / seen).toBeGreaterThanOrEqual(0.4);
  });

  it('keeps both calls of the hello-world session: the Write and the Bash that runs the script', () => {
    expect(report('hello')).toMatchObject({ seen: 2, kept: 2, dropped: {}, cases: ['recorded-hello-world-script'] });
  });

  it('drops what the course lacks or cannot replay, each with its reason', () => {
    expect(report('short')).toMatchObject({ seen: 2, kept: 0, dropped: { 'never ran: rejected by the user': 2 } });
    expect(report('heavy').dropped).toEqual({
      "not in the course's toolset: WebSearch": 1,
      "not in the course's toolset: WebFetch": 1,
      'Bash in the background': 1,
      "uses the agent's own files (~/.claude, /tmp/claude-*)": 1,
    });
    expect(report('port').dropped).toMatchObject({
      "not in the course's toolset: TodoWrite": 10,
      "not in the course's toolset: Task": 1,
    });
    expect(report('spotter').dropped).toMatchObject({
      'never ran: blocked by a PreToolUse hook': 1,
      'Glob result truncated by the agent': 2,
    });
    // A Grep with context lines is judged by its match lines (issue 27): never dropped for them.
    expect(report('spotter').dropped['Grep context lines']).toBeUndefined();
  });

  it("keeps the spotter session's file tools, its subagents' included, and drops the commands it cannot run here", () => {
    const spotter = report('spotter');
    expect(spotter.kept).toBeGreaterThanOrEqual(120);
    // mix, git and bd are not on a student's machine for sure: dropped before any replay.
    for (const [name, at_least] of [
      ['mix', 25],
      ['git', 20],
      ['bd', 15],
    ] as const)
      expect(spotter.dropped[unportable(name)], name).toBeGreaterThanOrEqual(at_least);
    expect(spotter.reproduced).toBe(spotter.kept);
  });

  it('counts what it redacted: the home directory (plain and dash-encoded)', () => {
    expect(report('spotter').redactions['home directory']).toBeGreaterThan(0);
    // /tmp/claude-1000/-home-marco-projects-spotter/tasks/…: the user's home as Claude Code encodes it.
    expect(report('heavy').redactions['home directory']).toBe(2);
  });

  it("keeps the made-up addresses of the port's own tests, so its seeds match the project's files (issue 27)", async () => {
    expect(report('port').redactions['e-mail address']).toBeUndefined();
    const text = await readFile(join(dir, 'cases', STAGE, 'recorded-python-to-rust-port.json'), 'utf8');
    expect(text).toContain('assert!(is_valid_email(\\"user@domain.org\\"));');
    expect(text).toContain('user.name+tag@sub.domain.com');
  });

  it('writes every case and its snapshot, and each validates with the course loader', async () => {
    expect(outcome.cases.every((c) => c.status === 'added')).toBe(true);
    const loaded = await loadCases(dir, STAGE);
    expect(loaded.map((c) => c.name).sort()).toEqual(outcome.cases.map((c) => c.name).sort());
    expect((await readdir(join(dir, 'snapshots', STAGE))).length).toBe(loaded.length);
  });

  it('carries no path, user name or e-mail of the recording machine in any case or snapshot', async () => {
    for (const sub of ['cases', 'snapshots']) {
      for (const name of await readdir(join(dir, sub, STAGE))) {
        const text = await readFile(join(dir, sub, STAGE, name), 'utf8');
        for (const pattern of MACHINE) expect(text, `${sub}/${STAGE}/${name}`).not.toMatch(pattern);
      }
    }
  });

  it('grades every recorded case green against the reference, as the grader judges a course directory', async () => {
    const verdicts = await gradeRecorded(scratch, dir, STAGE);
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => !v.endsWith(': pass'))).toEqual([]);
  }, 120_000);

  it('writes exactly the recorded cases committed in cases/register-tools/ (docs/recording.md, "A worked example")', async () => {
    const how =
      'the pipeline now writes other bytes: re-record them with the command in docs/recording.md and read the diff';
    for (const name of ['recorded-hello-world-script', 'recorded-python-to-rust-port', 'recorded-tool-heavy']) {
      for (const sub of ['cases', 'snapshots']) {
        const committed = await readFile(join(REPO, sub, STAGE, `${name}.json`), 'utf8');
        expect(
          await readFile(join(dir, sub, STAGE, `${name}.json`), 'utf8'),
          `${sub}/${STAGE}/${name}.json: ${how}`,
        ).toBe(committed);
      }
    }
  });
});
