// The pipeline on sessions as people record them (issue 16): one real-shaped transcript per defect found on
// sessions from the wild, each recorded as `theinference record --dry-run` would (test/record/wild-sessions.ts).
import { describe, expect, it } from 'vitest';
import { PERSISTED_DROP } from '../../src/record/map/map-call.ts';
import { useScratch } from '../grade/course-fixture.ts';
import { courseDir, recordFixtures } from './wild-sessions.ts';

const scratch = useScratch();
const WIDE = 60_000;

describe('a Grep result that is no listing', () => {
  it(
    "drops Claude Code 2.1's <persisted-output> preview with a reason of its own, and keeps the rest of its window",
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/persisted-grep.jsonl']);
      expect(reports[0]).toMatchObject({ seen: 5, kept: 4, dropped: { [PERSISTED_DROP]: 1 } });
      expect(cases.map((c) => c.data.calls.map((call) => call.tool))).toEqual([['Read', 'Edit', 'Read', 'Grep']]);
      expect(Object.keys(cases[0]?.data.files ?? {})).toEqual(['src/cart.ts']);
    },
    WIDE,
  );
});

describe('a Windows session', () => {
  it(
    'maps drive letters, backslashes, any case and Git Bash paths as POSIX ones, and keeps what reproduces',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/windows-session.jsonl']);
      expect(reports[0]).toMatchObject({
        seen: 11,
        kept: 10,
        dropped: { "Bash runs node, not one of the course's portable commands (docs/tools.md)": 1 },
      });
      const calls = cases[0]?.data.calls ?? [];
      expect(calls.map((c) => c.input.path ?? c.input.command)).toEqual([
        undefined,
        '<sandbox>/src/cart.ts',
        '<sandbox>/src/util/money.ts',
        '<sandbox>/src',
        '<sandbox>/src',
        '<sandbox>/src/cart.ts',
        '<sandbox>/docs/discounts.md',
        'cat src/cart.ts | head -4',
        'ls <sandbox>/src',
        'src/cart.ts',
      ]);
      expect(Object.keys(cases[0]?.data.files ?? {}).sort()).toEqual(['src/cart.ts', 'src/util/money.ts']);
    },
    WIDE,
  );
});

describe('privacy', () => {
  it(
    'removes JWTs anywhere, URL credentials and the home in every encoding, and leaves what only looks like them',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/privacy.jsonl']);
      expect(reports[0]).toMatchObject({ seen: 4, kept: 4 });
      expect(reports[0]?.redactions).toMatchObject({ JWT: 2, 'GitHub token': 2, 'URL credentials': 4, 'user name': 2 });
      const text = cases.map((c) => `${c.caseText}${c.snapshotText}`).join('');
      for (const secret of [
        'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9',
        'hunter2-db',
        'ghp_',
        '/home/alex',
        '-home-alex',
        '%2Fhome%2Falex',
        '\\/home\\/alex',
        'alex@devbox',
        'alex.doe@',
      ])
        expect(text).not.toContain(secret);
      for (const kept of [
        'alex/ent-221-login',
        'alex/ent-230-refresh',
        'git@github.com:acme/api.git',
        'USER@EXAMPLE.COM',
        'Bearer $TOKEN',
        'Bearer YOUR_JWT_TOKEN',
        'The Bearer scheme',
      ])
        expect(text).toContain(kept);
      expect(text).toContain('postgresql://<redacted:credentials>@db.internal:5432/api');
    },
    WIDE,
  );
});

describe('a call dropped because of what came before it', () => {
  it(
    'starts a new window at a call that reproduces from its own evidence, though nothing was kept before it',
    async () => {
      // A Grep showed the TODO line as it was; the user reworded it in an editor; the Read shows it reworded.
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/world-changed-first.jsonl']);
      expect(reports[0]).toMatchObject({
        seen: 3,
        kept: 2,
        dropped: { 'did not reproduce: Grep: different lines': 1 },
      });
      expect(cases.map((c) => c.data.calls.map((call) => call.tool))).toEqual([['Read', 'Edit']]);
      expect(reports[0]?.droppedCalls).toEqual([
        { id: expect.stringMatching(/^toolu_/), tool: 'Grep', reason: 'did not reproduce: Grep: different lines' },
      ]);
    },
    WIDE,
  );
});

describe("Claude Code's own refusals", () => {
  it(
    'are calls that never ran, like a rejected one: not replayed, no divergence',
    async () => {
      const { reports } = await recordFixtures(scratch, ['claude-code-2.1/refusals.jsonl']);
      expect(reports[0]).toMatchObject({
        seen: 5,
        mapped: 3,
        replayed: 3,
        kept: 3,
        reproduced: 3,
        dropped: { 'never ran: refused by Claude Code': 2 },
        divergences: [],
      });
    },
    WIDE,
  );
});

describe('a command that works only where the author works', () => {
  it(
    'drops `… | jq` as outside the portable commands, and keeps it with --bash keep',
    async () => {
      const portable = await recordFixtures(scratch, ['claude-code-2.1/jq-pipe.jsonl']);
      expect(portable.reports[0]).toMatchObject({
        seen: 3,
        kept: 2,
        replayed: 2,
        dropped: { "Bash runs jq, not one of the course's portable commands (docs/tools.md)": 1 },
      });
      const kept = await recordFixtures(scratch, ['claude-code-2.1/jq-pipe.jsonl'], { bash: 'keep' });
      expect(kept.reports[0]).toMatchObject({ seen: 3, kept: 3, dropped: {} });
    },
    WIDE,
  );
});

describe('a Codex CLI rollout', () => {
  it(
    'imports shell, exec_command and apply_patch calls by call_id, and keeps the commands that reproduce',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['codex/rollout-shop.jsonl']);
      expect(reports[0]).toMatchObject({
        format: 'codex',
        seen: 8,
        kept: 5,
        dropped: {
          "Bash runs git, not one of the course's portable commands (docs/tools.md)": 1,
          "not in the course's toolset: apply_patch": 1,
          'Bash in the background': 1,
        },
      });
      expect(cases.map((c) => c.data.calls.map((call) => call.input.command))).toEqual([
        [
          "printf 'Mon-Fri 9-18\\nSat 10-14\\n' > notes.txt",
          'cat notes.txt',
          'wc -l notes.txt',
          'grep -c Sat notes.txt',
          'cat missing.txt',
        ],
      ]);
    },
    WIDE,
  );
});

describe('a pi session file (issue 39)', () => {
  it(
    "reads the branch the session ended on, maps pi's tools, and keeps the calls that reproduce in the replay",
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['pi/session.jsonl']);
      expect(reports[0]).toMatchObject({ format: 'pi', seen: 7, kept: 7, dropped: {} });
      expect(cases.flatMap((c) => c.data.calls.map((call) => [call.tool, call.input]))).toEqual([
        ['Write', { path: 'notes.txt', file_text: 'Mon-Fri 9-18\nSat 10-14\n' }],
        ['Read', { path: '<sandbox>/notes.txt' }],
        ['Edit', { path: 'notes.txt', old_str: 'Sunday', new_str: 'Sunday closed' }],
        ['Bash', { command: 'grep -c Sat notes.txt' }],
        ['Edit', { path: 'notes.txt', old_str: 'Sat 10-14\n', new_str: 'Sat 10-14\nSun closed\n' }],
        ['Bash', { command: 'cat notes.txt', timeout: 10_000 }],
        ['Bash', { command: 'cat missing.txt' }],
      ]);
    },
    WIDE,
  );
});

describe('a Codex 0.5x rollout (shell_command)', () => {
  it(
    'reads shell_command {command: LINE, workdir} as Bash, workdir the directory, a # comment line no command',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['codex/rollout-shell-command.jsonl']);
      expect(reports[0]).toMatchObject({
        format: 'codex',
        seen: 6,
        kept: 5,
        dropped: { "Bash after a cd out of the session's directory": 1 },
      });
      expect(cases.map((c) => c.data.calls.map((call) => call.input.command))).toEqual([
        [
          "mkdir -p src && printf 'tea\\ncoffee\\ncocoa\\n' > src/products.txt",
          '# how many products are there?\nwc -l src/products.txt',
          'cd <sandbox>/src && cat products.txt',
          'cd <sandbox>/src && sort products.txt | head -n 1',
          'grep -c co src/products.txt',
        ],
      ]);
    },
    WIDE,
  );
});

describe('snapshots of one growing session, recorded under different names (issue 27)', () => {
  it(
    'writes no case whose calls a case recorded before already holds, and says which',
    async () => {
      const dir = await courseDir(scratch);
      const late = await recordFixtures(scratch, ['codex/rollout-shell-command.jsonl'], {
        dir,
        name: 'recorded-late',
        dryRun: false,
      });
      expect(late.cases.map((c) => [c.name, c.status])).toEqual([['recorded-late', 'added']]);
      const early = await recordFixtures(scratch, ['codex/rollout-shell-command-early.jsonl'], {
        dir,
        name: 'recorded-early',
        dryRun: false,
      });
      expect(early.cases).toEqual([]);
      expect(early.reports[0]?.dropped).toEqual({
        'in a case not written: its calls are in recorded-late already (the same session), recorded before': 3,
      });
    },
    WIDE,
  );
});

describe('a Codex CLI rollout recorded on Windows', () => {
  it(
    'maps its cwd and workdirs in any spelling (backslashes, forward slashes, any case, shell-quoted) as POSIX ones',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['codex/rollout-windows.jsonl']);
      expect(reports[0]).toMatchObject({
        format: 'codex',
        seen: 6,
        kept: 3,
        dropped: {
          "Bash runs powershell.exe, not one of the course's portable commands (docs/tools.md)": 1,
          "Bash after a cd out of the session's directory": 1,
          'did not reproduce: Bash: different output': 1,
        },
      });
      expect(cases.map((c) => c.data.calls.map((call) => call.input.command))).toEqual([
        [
          "mkdir -p src && printf 'Mon-Fri 9-18\\nSat 10-14\\n' > src/hours.txt",
          'cd <sandbox>/src && wc -l hours.txt',
          'ls <sandbox>/src',
        ],
      ]);
    },
    WIDE,
  );
});

describe('a Gemini CLI session', () => {
  it.each(['gemini/session-2026-03-12T10-00-5e0c9a7b.json', 'gemini/session-2026-03-12T10-00-5e0c9a7b.jsonl'])(
    '%s: keeps its file tools and commands that reproduce, in the directory its paths show',
    async (file) => {
      const { reports, cases } = await recordFixtures(scratch, [file]);
      expect(reports[0]).toMatchObject({
        format: 'gemini',
        seen: 10,
        kept: 8,
        dropped: {
          'never ran: cancelled by the user': 1,
          "Bash runs npm, not one of the course's portable commands (docs/tools.md)": 1,
        },
      });
      expect(
        cases.flatMap((c) => c.data.calls.map((call) => [call.tool, call.input.path ?? call.input.command])),
      ).toEqual([
        ['Write', '<sandbox>/src/cart.ts'],
        ['Read', '<sandbox>/src/cart.ts'],
        ['Edit', '<sandbox>/src/cart.ts'],
        ['glob', undefined],
        ['Bash', 'wc -l src/cart.ts'],
        ['Bash', 'cd <sandbox>/src && ls'],
        ['Bash', 'cat notes.txt'],
        ['grep', undefined],
      ]);
    },
    WIDE,
  );

  it(
    'recorded on a Mac: no file it writes (case, snapshot, recording) keeps the home directory or the user (issue 27)',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['gemini/session-macos.json']);
      expect(reports[0]).toMatchObject({ format: 'gemini', seen: 10, kept: 8 });
      for (const c of cases) {
        expect(c.recordingText).toContain('Successfully');
        for (const text of [c.caseText, c.snapshotText, c.recordingText ?? ''])
          expect(text, c.name).not.toMatch(/\/Users\/|dana/);
      }
    },
    WIDE,
  );

  it(
    'recorded on Windows (drive letters, backslashes, mixed separators, any case) gives the same case as on POSIX',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, [
        'gemini/session-2026-03-12T10-00-5e0c9a7b.json',
        'gemini/session-windows.json',
      ]);
      expect(reports[1]).toMatchObject({ format: 'gemini', seen: 10, kept: 0 });
      expect(reports[1]?.dropped).toMatchObject({
        'in a case not written: the same calls from the same files as recorded-session-2026-03-12t10-00-5e0c9a7b': 8,
      });
      expect(cases).toHaveLength(1);
    },
    WIDE,
  );
});

describe("a Gemini CLI session's ranged reads and searches", () => {
  it(
    'views the lines each ranged read showed, greps as Gemini searched, and drops a search whose case mattered',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['gemini/session-ranges.json']);
      expect(reports[0]).toMatchObject({
        seen: 6,
        kept: 5,
        dropped: { 'did not reproduce: grep: different lines': 1 },
      });
      expect(cases[0]?.data.calls).toEqual([
        { tool: 'Read', input: { path: '<sandbox>/src/stock.ts', view_range: [1, 3] } },
        { tool: 'Read', input: { path: '<sandbox>/src/stock.ts', view_range: [7, -1] } },
        { tool: 'grep', input: { pattern: 'export function', path: '<sandbox>/src' } },
        { tool: 'Read', input: { path: '<sandbox>/src/stock.ts', view_range: [4, 5] } },
        { tool: 'view', input: { path: '<sandbox>/src' } },
      ]);
      expect(cases[0]?.data.files?.['src/stock.ts']).toBe(
        'export type Item = { sku: string; count: number };\n\nexport function inStock(item: Item): boolean {\n  return item.count > 0;\n}\n\nexport function restock(item: Item, n: number): Item {\n  return { ...item, count: item.count + n };\n}\n',
      );
    },
    WIDE,
  );
});

describe('an OpenAI Responses shell_call of several commands', () => {
  it(
    'replays each command as a Bash call of its own, judged by its own report',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['openai-responses-constructed/shell-call.json']);
      expect(reports[0]).toMatchObject({
        seen: 5,
        kept: 4,
        dropped: { 'never ran: the shell_call reported no output for it': 1 },
      });
      expect(cases[0]?.data.calls.map((c) => c.input.command)).toEqual([
        "printf 'buy milk\\ncall Ada\\n' > notes.txt",
        'wc -l notes.txt',
        'cat todo.txt',
        'grep -c Ada notes.txt',
      ]);
      expect(JSON.parse(cases[0]?.snapshotText ?? '{}').results[2]).toMatchObject({ exit_code: 1, is_error: true });
    },
    WIDE,
  );
});

describe("Claude Code's MultiEdit", () => {
  it(
    'is the sequence of Edits it applied, each checked against the file the edit before it left',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/multi-edit.jsonl']);
      expect(reports[0]).toMatchObject({ seen: 4, kept: 4, dropped: {} });
      expect(cases[0]?.data.calls.map((c) => [c.tool, c.input.old_str ?? null])).toEqual([
        ['Write', null],
        ['Edit', '0.2'],
        ['Edit', 'net * 1.2'],
        ['Read', null],
      ]);
      expect((cases[0]?.data.source as { tool_use_ids?: string[] } | undefined)?.tool_use_ids?.slice(1, 3)).toEqual([
        'toolu_01MUe1f2a3b4c5d6e7f8a9b0#1',
        'toolu_01MUe1f2a3b4c5d6e7f8a9b0#2',
      ]);
    },
    WIDE,
  );
});

describe('noisy cases', () => {
  it(
    'keeps a case that repeats an earlier one (the same calls from the same files) once, and says so',
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-2.1/repeated-triple.jsonl'], {
        maxCalls: 3,
      });
      expect(reports[0]).toMatchObject({ seen: 9, kept: 3 });
      expect(reports[0]?.dropped).toMatchObject({
        'in a case not written: the same calls from the same files as recorded-repeated-triple-01': 6,
      });
      expect(cases.map((c) => c.name)).toEqual(['recorded-repeated-triple-01']);
    },
    WIDE,
  );
});

describe("Claude Code 1.0's LS", () => {
  it(
    "is a directory view kept where the course's two levels show what the tree shows, seeded with the files they need",
    async () => {
      const { reports, cases } = await recordFixtures(scratch, ['claude-code-1.0/ls-session.jsonl']);
      expect(reports[0]).toMatchObject({
        seen: 5,
        kept: 3,
        dropped: {
          'LS result truncated by the agent': 1,
          'did not reproduce: view: a success in the recording, not in the replay': 1,
        },
      });
      expect(cases[0]?.data.calls).toEqual([
        { tool: 'view', input: { path: '<sandbox>' } },
        { tool: 'Read', input: { path: '<sandbox>/src/cart.ts' } },
        { tool: 'view', input: { path: '<sandbox>/src' } },
      ]);
      expect(Object.keys(cases[0]?.data.files ?? {}).sort()).toEqual([
        'README.md',
        'package.json',
        'src/cart.ts',
        'src/util/money.ts',
        'test/cart.test.ts',
      ]);
      expect(JSON.parse(cases[0]?.snapshotText ?? '{}').results[2]).toEqual({
        content: 'cart.ts\nutil/\nutil/money.ts',
      });
    },
    WIDE,
  );
});
