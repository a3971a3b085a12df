// Seeds from the recording's evidence: for each file a case's calls touch, the first thing the recording shows of
// it from the case's start, before anything changed it, else what earlier calls left it as; --files-from when the
// recording only guesses.
import { describe, expect, it } from 'vitest';
import { makeRedactor } from '../../../src/record/map/redact.ts';
import { prepareSteps } from '../../../src/record/map/prepare-steps.ts';
import { deriveSeed, MAX_SEED_CHARS, sparseText, touchedPaths } from '../../../src/record/seed/seed-files.ts';
import type { ImportedCall } from '../../../src/record/types.ts';
import { call, claudeRead, CWD, transcript } from '../calls.ts';
import { importText } from '../../../src/record/import-transcript.ts';
import type { ImportedTranscript } from '../../../src/record/types.ts';

const P = `${CWD}/a.txt`;
const steps = (calls: ImportedCall[]) =>
  prepareSteps(transcript(calls), makeRedactor({ users: [], homes: [], patterns: [] }));
const seedOf = async (calls: ImportedCall[], from = 0, filesFrom?: Record<string, string>) => {
  const s = steps(calls);
  const read = async (path: string) => filesFrom?.[path];
  return deriveSeed(
    s,
    { from, to: s.length - 1 },
    ['a.txt'],
    filesFrom === undefined ? undefined : { read, changedEarlier: () => false },
  );
};

describe('deriveSeed', () => {
  it.each([
    ['a whole Read', [call('Read', { file_path: P }, claudeRead(P, 'one\ntwo\n'))], 'one\ntwo\n', 'read'],
    [
      "an Edit's original",
      [
        call(
          'Edit',
          { file_path: P, old_string: 'one', new_string: '1' },
          { content: 'ok', details: { originalFile: 'one\n' } },
        ),
      ],
      'one\n',
      'edit',
    ],
    [
      "a Write's original",
      [
        call(
          'Write',
          { file_path: P, content: 'x' },
          { content: 'updated', details: { type: 'update', originalFile: 'old' } },
        ),
      ],
      'old',
      'write',
    ],
    ['a listing: exists, seeded empty', [call('Glob', { pattern: '*.txt' }, `${P}`)], '', 'listing'],
    [
      'a partial Read: its lines, the others blank',
      [call('Read', { file_path: P, offset: 2, limit: 1 }, claudeRead(P, 'a\nb\nc\n', { from: 2, count: 1 }))],
      '\nb\n\n',
      'partial-read',
    ],
    ['Grep lines', [call('Grep', { pattern: 'b', output_mode: 'content' }, 'a.txt:2:b')], '\nb\n', 'partial-read'],
    [
      'a partial Read, then a whole Read agreeing with it',
      [
        call('Read', { file_path: P, offset: 2, limit: 1 }, claudeRead(P, 'a\nb\nc\n', { from: 2, count: 1 })),
        call('Read', { file_path: P }, claudeRead(P, 'a\nb\nc\n')),
      ],
      'a\nb\nc\n',
      'read',
    ],
    [
      'a partial Read, then a whole Read that disagrees (the file changed between): the lines seen first',
      [
        call('Read', { file_path: P, offset: 2, limit: 1 }, claudeRead(P, 'a\nb\nc\n', { from: 2, count: 1 })),
        call('Read', { file_path: P }, claudeRead(P, 'a\nB\nc\n')),
      ],
      '\nb\n\n',
      'partial-read',
    ],
  ])('%s', async (_, calls, text, origin) => {
    const seed = await seedOf(calls);
    expect(seed.files).toEqual({ 'a.txt': text });
    expect(seed.origins).toEqual({ 'a.txt': origin });
  });

  it('seeds no file from a listing row that names none: a note, a preview, a line not shaped file:N:text', async () => {
    const grep = call(
      'Grep',
      { pattern: 'x', output_mode: 'content' },
      'a.txt:1:x\nassets/logo.png: binary file matches (found "\\0" byte around offset 4)\nsome note without a colon',
    );
    const s = steps([grep]);
    expect([...(s[0]?.evidence.before.keys() ?? [])]).toEqual(['a.txt']);
    const seed = await deriveSeed(s, { from: 0, to: 0 }, ['', '.', 'a.txt', 'src/', '/etc/passwd']);
    expect(seed.files).toEqual({ 'a.txt': 'x\n' });
  });

  it('seeds no file where another seeded path lies below it: it was a directory', async () => {
    const s = steps([call('Glob', { pattern: '**' }, `${CWD}/lib\n${CWD}/lib/a.txt`)]);
    expect((await deriveSeed(s, { from: 0, to: 0 }, ['lib', 'lib/a.txt'])).files).toEqual({ 'lib/a.txt': '' });
  });

  it('does not seed a file the first call creates', async () => {
    expect(
      (
        await seedOf([
          call(
            'Write',
            { file_path: P, content: 'x' },
            { content: 'created', details: { type: 'create', originalFile: null } },
          ),
        ])
      ).files,
    ).toEqual({});
  });

  it('stops at a command that names the file: what follows may show what it did', async () => {
    const seed = await seedOf([
      call('Bash', { command: `sed -i s/a/b/ ${P}` }, ''),
      call('Read', { file_path: P }, claudeRead(P, 'b\n')),
    ]);
    expect(seed.files).toEqual({});
  });

  it("carries what earlier calls left the file as into a later case's seed", async () => {
    const calls = [
      call(
        'Write',
        { file_path: P, content: 'written\n' },
        { content: 'created', details: { type: 'create', originalFile: null } },
      ),
      call('Bash', { command: 'ls' }, 'a.txt'),
      call('Bash', { command: `chmod +x ${P}` }, ''),
    ];
    expect((await seedOf(calls, 2)).files).toEqual({ 'a.txt': 'written\n' });
  });

  it("carries a listing into a later case's seed, unless an earlier call shows the file's text", async () => {
    const listing = call('Glob', { pattern: '*.txt' }, P);
    const rm = call('Bash', { command: `rm ${P}` }, '');
    expect(await seedOf([listing, rm], 1)).toEqual({
      files: { 'a.txt': '' },
      origins: { 'a.txt': 'listing' },
      tooLarge: [],
    });
    const read = call('Read', { file_path: P }, claudeRead(P, 'one\n'));
    expect((await seedOf([read, listing, rm], 2)).files).toEqual({ 'a.txt': 'one\n' });
  });

  it('prefers --files-from to guesses, and the recording to --files-from', async () => {
    const listing = [call('Glob', { pattern: '*.txt' }, P)];
    expect((await seedOf(listing, 0, { 'a.txt': 'from disk\n' })).origins).toEqual({ 'a.txt': 'files-from' });
    const read = [call('Read', { file_path: P }, claudeRead(P, 'recorded\n'))];
    expect((await seedOf(read, 0, { 'a.txt': 'from disk\n' })).files).toEqual({ 'a.txt': 'recorded\n' });
  });

  it('refuses a file too large to read in a failure', async () => {
    const big = 'x'.repeat(MAX_SEED_CHARS + 1);
    const seed = await seedOf([call('Read', { file_path: P }, claudeRead(P, big))]);
    expect(seed).toEqual({ files: {}, origins: {}, tooLarge: ['a.txt'] });
  });
});

describe('sparseText', () => {
  it('puts lines at their numbers, counting as Claude Code does when its count is known', () => {
    expect(sparseText({ lines: new Map([[2, 'b']]), total: 4 })).toBe('\nb\n\n');
    expect(sparseText({ lines: new Map([[2, 'b']]) })).toBe('\nb\n');
  });
});

describe('touchedPaths', () => {
  it("expands a command's wildcards and directories over the files the recording knows", () => {
    const [step] = steps([call('Bash', { command: `rm ${CWD}/src/*.py && rm -r ${CWD}/tests/` }, '')]);
    const known = ['src/a.py', 'src/b.rs', 'src/deep/c.py', 'tests/t.py', 'tests/x/y.py', 'other.py'];
    expect(touchedPaths(step!.evidence, undefined, known).sort()).toEqual(['src/a.py', 'tests/t.py', 'tests/x/y.py']);
  });
});

// `claude -p --output-format stream-json` without `tool_use_result`: the seed is read off the numbered text alone,
// whose last line break (no reminder follows it) is the message's, not the file's.
describe('a claude -p stream-json Read with no tool_use_result', () => {
  const line = (o: unknown) => JSON.stringify(o);
  const session = (result: string) =>
    [
      line({ type: 'system', subtype: 'init', cwd: '/tmp/demo', session_id: 's1', tools: ['Read'] }),
      line({
        type: 'assistant',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/tmp/demo/a.txt' } }],
        },
        parent_tool_use_id: null,
        session_id: 's1',
      }),
      line({
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: result }] },
        parent_tool_use_id: null,
        session_id: 's1',
      }),
    ].join('\n');

  it.each([
    ['ending in its last numbered line', '     1→one\n     2→two\n     3→', 'one\ntwo\n'],
    ['ending in a line break', '     1→one\n     2→two\n     3→\n', 'one\ntwo\n'],
    ['of a file without a final newline, ending in a line break', '     1→one\n     2→two\n', 'one\ntwo'],
  ])('%s: the file exactly', async (_, result, text) => {
    const t = importText(session(result), 'stream.jsonl') as ImportedTranscript;
    expect(t.calls[0]?.result?.details).toBeUndefined();
    const s = prepareSteps(t, makeRedactor({ users: [], homes: [], patterns: [] }));
    const seed = await deriveSeed(s, { from: 0, to: 0 }, ['a.txt']);
    expect(seed.files).toEqual({ 'a.txt': text });
  });
});
