// The pure part of the pipeline never crashes: thousands of seeded random damages to real recorded calls (names
// swapped, keys dropped, values of every JSON type, paths outside and inside, results and their evidence
// replaced) go through paths, redaction, mapping, evidence, seeds and the replay rules, and each ends as a course
// call or a reason, a verdict, a seed of relative paths. A failing run prints its seed; `FUZZ_SEED=<n>` replays it.
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../../../src/record/import-transcript.ts';
import { prepareSteps } from '../../../src/record/map/prepare-steps.ts';
import { makeRedactor } from '../../../src/record/map/redact.ts';
import { deriveSeed, touchedPaths } from '../../../src/record/seed/seed-files.ts';
import type { ImportedCall } from '../../../src/record/types.ts';
import { verifyResult } from '../../../src/record/replay/verify-result.ts';
import { fixture, hasSharedTranscripts, imported, shared } from '../formats/transcript-files.ts';
import { call, CWD, transcript } from '../calls.ts';

const RUNS = 3000;
const FIRST_SEED = Number(process.env.FUZZ_SEED ?? 20261201);

const NAMES = [
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'view',
  'create',
  'str_replace',
  'insert',
  'glob',
  'grep',
  'bash',
  'str_replace_based_edit_tool',
  'str_replace_editor',
  'read_file',
  'write_file',
  'edit_file',
  'MultiEdit',
  'TodoWrite',
  '__proto__',
  'toString',
  '',
];
const KEYS = [
  'file_path',
  'path',
  'content',
  'file_text',
  'old_string',
  'new_string',
  'old_str',
  'new_str',
  'replace_all',
  'offset',
  'limit',
  'view_range',
  'pattern',
  'glob',
  'output_mode',
  '-n',
  '-i',
  '-C',
  'head_limit',
  'type',
  'command',
  'timeout',
  'run_in_background',
  'insert_line',
  'insert_text',
  'old_text',
  'new_text',
];
const STRINGS = [
  `${CWD}/src/a.ts`,
  CWD,
  `${CWD}-other/x`,
  '/etc/passwd',
  '/tmp/claude-1000/-home-ada-proj/tasks/x.output',
  '~/.claude/projects/x',
  '../../up',
  '<sandbox>/b',
  'src/*.py',
  'a\nb',
  '',
  'ada@example.org',
  'sk-ant-api03-aaaaaaaaaaaaaaaaaaaaaaaa',
  `rm -rf ${CWD}/src && echo $HOME > /tmp/x`,
  'files_with_matches',
  'content',
  'count',
  'view',
  'insert',
  'undo_edit',
];
const CONTENTS = [
  '',
  'No files found',
  'No matches found',
  'Found 2 files\na.ts\nb.ts',
  `${CWD}/a.ts\n${CWD}/b.ts`,
  '     1→a\n     2→',
  '1: a\n2: b',
  'a.ts:3:x',
  '3:x',
  'Exit code 2\nboom',
  'File does not exist.',
  '<system-reminder>x</system-reminder>',
  '(Results are truncated. Consider using a more specific path or pattern.)',
  '[Showing results with pagination = limit: 2, offset: 0]',
];
const DETAILS = [
  undefined,
  null,
  'Error: x',
  { type: 'create', originalFile: null },
  { type: 'update', originalFile: 5 },
  { originalFile: 'a\nb', userModified: 'yes' },
  { type: 'text', file: { content: 'a', startLine: 1, numLines: 1, totalLines: 1 } },
  { file: { totalLines: -3 } },
  { mode: 'content', numLines: 'x' },
  { truncated: true },
  [1, 2],
];

// xorshift32: a small seeded generator.
function generator(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

// Real calls, and one per tool name with the keys that name takes, so that every mapping is reached often.
const PLAUSIBLE: Record<string, unknown> = {
  file_path: `${CWD}/a.ts`,
  path: `${CWD}/a.ts`,
  content: 'x\n',
  file_text: 'x\n',
  old_string: 'x',
  new_string: 'y',
  old_str: 'x',
  new_str: 'y',
  replace_all: false,
  offset: 2,
  limit: 3,
  view_range: [1, 2],
  pattern: 'x',
  glob: '*.ts',
  output_mode: 'content',
  '-n': true,
  '-i': false,
  '-C': 0,
  head_limit: 5,
  type: '',
  command: 'ls',
  timeout: 1000,
  run_in_background: false,
  insert_line: 0,
  insert_text: 'x',
  old_text: 'x',
  new_text: 'y',
};
const TAKES: Record<string, string[]> = {
  Read: ['file_path', 'offset', 'limit'],
  Write: ['file_path', 'content'],
  Edit: ['file_path', 'old_string', 'new_string', 'replace_all'],
  Glob: ['pattern', 'path'],
  Grep: ['pattern', 'path', 'glob', 'output_mode', '-n', '-i', '-C', 'head_limit', 'type'],
  Bash: ['command', 'timeout', 'run_in_background'],
  view: ['path', 'view_range'],
  create: ['path', 'file_text'],
  str_replace: ['path', 'old_str', 'new_str'],
  insert: ['path', 'insert_line', 'insert_text'],
  read_file: ['path', 'limit'],
  write_file: ['path', 'content'],
  edit_file: ['path', 'old_text', 'new_text'],
};
TAKES.glob = TAKES.Glob ?? [];
TAKES.grep = TAKES.Grep ?? [];
TAKES.bash = TAKES.Bash ?? [];
const corpus: ImportedCall[] = NAMES.map((name) =>
  call(
    name,
    Object.fromEntries(((Object.hasOwn(TAKES, name) ? TAKES[name] : undefined) ?? KEYS).map((k) => [k, PLAUSIBLE[k]])),
    'ok',
  ),
);
for (const file of [fixture('spotter/tool_heavy.jsonl'), fixture('spotter/short.jsonl')])
  corpus.push(...imported(await importTranscript(file)).calls);
if (hasSharedTranscripts) {
  for (const file of [
    'claude-code/claude-reliability/python-to-rust-port/transcript.jsonl',
    'claude-code/spotter/fa812bfe-b295-4cca-9c2f-fdf01028cb46/subagents/agent-a93ccab.jsonl',
  ]) {
    corpus.push(...imported(await importTranscript(shared(file))).calls);
  }
}

function damage(original: ImportedCall, next: () => number): ImportedCall {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const value = (): unknown =>
    pick([
      pick(STRINGS),
      pick([-1, 0, 1, 2.5, 600_001, 1e12]),
      Math.floor(next() * 4000),
      true,
      false,
      null,
      [1, -1],
      [pick(STRINGS)],
      { a: pick(STRINGS) },
      undefined,
    ]);
  const c: ImportedCall = { ...original, input: { ...(original.input ?? {}) } };
  const input = c.input as Record<string, unknown>;
  for (let n = 1 + Math.floor(next() * 6); n > 0; n--) {
    const roll = next();
    if (roll < 0.2) c.name = pick(NAMES);
    else if (roll < 0.4) delete input[pick(Object.keys(input).concat(KEYS))];
    else if (roll < 0.7) input[pick(KEYS)] = value();
    else if (roll < 0.8) c.result = { content: pick(CONTENTS), isError: next() < 0.3, line: 1, details: pick(DETAILS) };
    else if (roll < 0.9) {
      const cwd = pick([CWD, `${CWD}/sub`, '/elsewhere', undefined]);
      if (cwd === undefined) delete c.cwd;
      else c.cwd = cwd;
    } else if (roll < 0.95) delete c.input;
    else if (next() < 0.5) delete c.notRun;
    else c.notRun = 'rejected by the user';
  }
  return c;
}

describe('the pure pipeline under damage', () => {
  it(`maps, judges and seeds ${RUNS} damaged recordings without a throw`, async () => {
    expect(corpus.length).toBeGreaterThan(5);
    const redactor = makeRedactor({
      users: ['ada', 'marco'],
      homes: ['/home/ada', '/home/marco'],
      patterns: [/secret/],
    });
    for (let run = 0; run < RUNS; run++) {
      const seed = FIRST_SEED + run;
      const next = generator(seed);
      try {
        const calls = Array.from({ length: 1 + Math.floor(next() * 4) }, () =>
          damage(corpus[Math.floor(next() * corpus.length)] as ImportedCall, next),
        );
        const steps = prepareSteps(transcript(calls), redactor);
        for (const step of steps) {
          expect(step.mapped === undefined).toBe(typeof step.drop === 'string' && step.drop !== '');
          if (step.mapped === undefined) continue;
          expect(typeof step.mapped.call.tool).toBe('string');
          expect(step.mapped.call.input).toBeTypeOf('object');
          const replayed = {
            content: CONTENTS[Math.floor(next() * CONTENTS.length)],
            is_error: next() < 0.3,
            exit_code: Math.floor(next() * 3),
          };
          const verdict = verifyResult(step.mapped, step.imported.result, replayed, next() < 0.5 ? null : 'a\n');
          expect(typeof verdict.ok).toBe('boolean');
        }
        const paths = steps.flatMap((s) => touchedPaths(s.evidence, s.path, ['src/a.ts', 'b']));
        const seeded = await deriveSeed(steps, { from: 0, to: steps.length - 1 }, paths);
        for (const [path, text] of Object.entries(seeded.files)) {
          expect(path.startsWith('/') || path.split('/').includes('..')).toBe(false);
          expect(typeof text).toBe('string');
        }
      } catch (error) {
        throw new Error(
          `fuzz run failed with seed ${seed} (FUZZ_SEED=${seed} replays it): ${(error as Error).message}`,
        );
      }
    }
  });
});
