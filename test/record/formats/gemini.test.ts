// Gemini CLI sessions: detected as a document or as records, calls paired with their functionResponse by id (a
// message written again with its results), the shell report taken apart, and the session's directory inferred.
import { describe, expect, it } from 'vitest';
import { geminiResult } from '../../../src/record/formats/gemini.ts';
import { importText } from '../../../src/record/import-transcript.ts';

const shell = (response: object, status = 'success') => ({
  name: 'run_shell_command',
  status,
  result: [{ functionResponse: { id: 'x', name: 'run_shell_command', response } }],
});

describe('geminiResult', () => {
  it.each([
    [
      'the full report',
      shell({
        output:
          'Command: ls\nDirectory: (root)\nOutput: a\nError: b\nError: (none)\nExit Code: (none)\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7',
      }),
      { content: 'a\nError: b', isError: false, details: { exit_code: 0 } },
    ],
    [
      'exit code first, as newer versions write it',
      shell({ error: 'Command: go test\nExit Code: 1\nOutput: FAIL' }),
      { content: 'FAIL', isError: true, details: { exit_code: 1 } },
    ],
    [
      'an empty output',
      shell({ output: 'Output: (empty)\nExit Code: 3' }),
      { content: '', isError: true, details: { exit_code: 3 } },
    ],
    ['no report at all', shell({ output: '12 passing' }), { content: '12 passing', isError: false }],
  ])('%s', (_, call, result) => {
    expect(geminiResult(call, 4)).toEqual({ ...result, line: 4 });
  });

  it("takes a ranged read's lines out of Gemini's note, with where they are in the file beside them", () => {
    const note =
      "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 2-3 of 10 total lines.\nAction: To read more of the file, you can use the 'offset' and 'limit' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use offset: 3.\n\n--- FILE CONTENT (truncated) ---\n";
    const read = {
      name: 'read_file',
      status: 'success',
      result: [{ functionResponse: { id: 'r', name: 'read_file', response: { output: `${note}b\nc` } } }],
    };
    expect(geminiResult(read, 4)).toEqual({
      content: 'b\nc',
      isError: false,
      details: { file: { startLine: 2, numLines: 2, totalLines: 10 } },
      line: 4,
    });
  });

  it('has no result while the call is executing, and reads an error response as an error', () => {
    expect(geminiResult({ name: 'read_file', status: 'executing' }, 1)).toBeUndefined();
    const failed = { name: 'read_file', result: [{ functionResponse: { response: { error: 'File not found' } } }] };
    expect(geminiResult(failed, 1)).toEqual({ content: 'File not found', isError: true, line: 1 });
  });
});

describe('a Gemini session', () => {
  const call = (id: string, name: string, args: object, output?: string) => ({
    id,
    name,
    args,
    ...(output === undefined
      ? { status: 'executing' }
      : { status: 'success', result: [{ functionResponse: { id, name, response: { output } } }] }),
  });
  const records = [
    { sessionId: 's-1', projectHash: 'ab12', startTime: '2026-03-12T10:00:00.000Z', kind: 'main' },
    {
      id: 'm1',
      type: 'gemini',
      content: '',
      toolCalls: [call('c1', 'read_file', { absolute_path: '/w/shop/src/a.ts' })],
    },
    {
      id: 'm1',
      type: 'gemini',
      content: '',
      toolCalls: [call('c1', 'read_file', { absolute_path: '/w/shop/src/a.ts' }, 'x\n')],
    },
    { $set: { lastUpdated: '2026-03-12T10:00:05.000Z' } },
    {
      id: 'm2',
      type: 'gemini',
      content: '',
      toolCalls: [
        call(
          'c2',
          'glob',
          { pattern: '*' },
          'Found 1 file(s) matching "*" within /w/shop, sorted by modification time (newest first):\n/w/shop/b',
        ),
      ],
    },
  ];

  it('as records: one call per id, its result from the message written again, the directory its paths show', () => {
    const transcript = importText(records.map((r) => JSON.stringify(r)).join('\n'), 'session.jsonl');
    expect(transcript).toMatchObject({ format: 'gemini', sessionId: 's-1', cwd: '/w/shop' });
    if (!('calls' in transcript)) throw new Error('not imported');
    expect(transcript.calls.map((c) => [c.id, c.result?.content])).toEqual([
      ['c1', 'x\n'],
      ['c2', 'Found 1 file(s) matching "*" within /w/shop, sorted by modification time (newest first):\n/w/shop/b'],
    ]);
  });

  it('as one document, pretty-printed', () => {
    const [session, ...messages] = records.filter((r) => !('$set' in r));
    const transcript = importText(JSON.stringify({ ...session, messages }, null, 2), 'session.json');
    expect(transcript).toMatchObject({ format: 'gemini', cwd: '/w/shop' });
    expect('calls' in transcript && transcript.calls.length).toBe(2);
  });
});

describe('a Gemini session recorded on Windows', () => {
  const read = (id: string, path: string) => ({
    id,
    name: 'read_file',
    args: { absolute_path: path },
    status: 'success',
    result: [{ functionResponse: { id, name: 'read_file', response: { output: 'x' } } }],
  });
  const session = (...paths: string[]) =>
    [
      { sessionId: 's-w', projectHash: 'cd34' },
      { id: 'm1', type: 'gemini', content: '', toolCalls: paths.map((p, i) => read(`c${i}`, p)) },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');

  it('is the deepest directory of its paths, in any case and with either separator, spelled as the first', () => {
    const transcript = importText(
      session('C:\\Users\\ada\\shop\\src\\a.ts', 'c:/users/ada/SHOP/docs/b.md', 'C:\\Users\\ada\\shop\\c.ts'),
      'session.jsonl',
    );
    expect(transcript).toMatchObject({ format: 'gemini', cwd: 'C:\\Users\\ada\\shop' });
  });

  it('is the directory a search names relative to the one it searched (`in path "src"` for `C:\\…\\shop\\src`)', () => {
    const search = {
      id: 's',
      name: 'search_file_content',
      args: { pattern: 'x', dir_path: 'C:\\Users\\ada\\shop\\src' },
      status: 'success',
      result: [
        {
          functionResponse: {
            id: 's',
            name: 'search_file_content',
            response: { output: 'No matches found for pattern "x" in path "src".' },
          },
        },
      ],
    };
    const text = [
      { sessionId: 's-w', projectHash: 'cd34' },
      { id: 'm1', type: 'gemini', content: '', toolCalls: [search, read('r', 'C:\\Users\\ada\\shop\\src\\a.ts')] },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n');
    expect(importText(text, 'session.jsonl')).toMatchObject({ cwd: 'C:\\Users\\ada\\shop' });
  });

  it('has no directory when its paths are on two drives, and a drive root is `C:\\`', () => {
    expect(importText(session('C:\\a\\x.ts', 'D:\\a\\y.ts'), 'session.jsonl')).not.toHaveProperty('cwd');
    expect(importText(session('C:\\x.ts', 'C:\\y.ts'), 'session.jsonl')).toMatchObject({ cwd: 'C:\\' });
  });
});
