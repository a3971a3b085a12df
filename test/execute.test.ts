import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeExecute } from '../src/execute.ts';
import { Tools, type ToolOutput } from '../src/tools/index.ts';

// A Tools that records which method the dispatcher called with which arguments. It stands in for the tools,
// not for the thing under test: the routing is what these tests check.
class RecordingTools {
  calls: unknown[][] = [];
  readonly result: ToolOutput = { content: 'recorded' };
  private record(method: string, args: unknown[]): Promise<ToolOutput> {
    this.calls.push([method, ...args]);
    return Promise.resolve(this.result);
  }
  view = (...args: unknown[]) => this.record('view', args);
  create = (...args: unknown[]) => this.record('create', args);
  insert = (...args: unknown[]) => this.record('insert', args);
  strReplace = (...args: unknown[]) => this.record('strReplace', args);
  glob = (...args: unknown[]) => this.record('glob', args);
  grep = (...args: unknown[]) => this.record('grep', args);
  bash = (...args: unknown[]) => this.record('bash', args);
}

function setup() {
  const tools = new RecordingTools();
  return { tools, execute: makeExecute(tools as unknown as Tools) };
}

describe('every alias routes to its method with the input translated', () => {
  const rows: Array<{ name: string; input: Record<string, unknown>; call: unknown[] }> = [
    { name: 'Read', input: { path: 'a', view_range: [1, 2] }, call: ['view', 'a', [1, 2]] },
    { name: 'view', input: { path: 'a', view_range: [1, 2] }, call: ['view', 'a', [1, 2]] },
    { name: 'Read', input: { path: 'a' }, call: ['view', 'a', undefined] },
    { name: 'Write', input: { path: 'a', file_text: 't' }, call: ['create', 'a', 't'] },
    { name: 'create', input: { path: 'a', file_text: 't' }, call: ['create', 'a', 't'] },
    { name: 'Edit', input: { path: 'a', old_str: 'o', new_str: 'n' }, call: ['strReplace', 'a', 'o', 'n'] },
    { name: 'str_replace', input: { path: 'a', old_str: 'o', new_str: 'n' }, call: ['strReplace', 'a', 'o', 'n'] },
    { name: 'Edit', input: { path: 'a', old_str: 'o' }, call: ['strReplace', 'a', 'o', undefined] },
    { name: 'insert', input: { path: 'a', insert_line: 2, insert_text: 't' }, call: ['insert', 'a', 2, 't'] },
    { name: 'insert', input: { path: 'a', insert_line: 2, new_str: 'n' }, call: ['insert', 'a', 2, 'n'] },
    {
      name: 'insert',
      input: { path: 'a', insert_line: 2, insert_text: 't', new_str: 'n' },
      call: ['insert', 'a', 2, 't'],
    },
    {
      name: 'insert',
      input: { path: 'a', insert_line: 2, insert_text: '', new_str: 'n' },
      call: ['insert', 'a', 2, ''],
    },
    { name: 'insert', input: { path: 'a', insert_line: 0 }, call: ['insert', 'a', 0, undefined] },
    { name: 'Glob', input: { pattern: '*', path: 'd' }, call: ['glob', '*', 'd'] },
    { name: 'glob', input: { pattern: '*', path: 'd' }, call: ['glob', '*', 'd'] },
    { name: 'Grep', input: { pattern: 'x', path: 'd', glob: '*.ts' }, call: ['grep', 'x', 'd', '*.ts'] },
    { name: 'grep', input: { pattern: 'x', path: 'd', glob: '*.ts' }, call: ['grep', 'x', 'd', '*.ts'] },
    { name: 'Bash', input: { command: 'ls', timeout: 5 }, call: ['bash', 'ls', 5] },
    { name: 'bash', input: { command: 'ls', timeout: 5 }, call: ['bash', 'ls', 5] },
    { name: 'Bash', input: { command: 'ls', description: 'list', extra: 1 }, call: ['bash', 'ls', undefined] },
  ];
  it.each(rows)('$name $input', async ({ name, input, call }) => {
    const { tools, execute } = setup();
    expect(await execute(name, input)).toBe(tools.result);
    expect(tools.calls).toEqual([call]);
  });
});

describe('echo', () => {
  it('returns input.text and calls no tool', async () => {
    const { tools, execute } = setup();
    expect(await execute('echo', { text: 'hi' })).toEqual({ content: 'hi' });
    expect(tools.calls).toEqual([]);
  });
});

describe('unknown names are an error result, never a throw', () => {
  const names = [
    'read',
    'READ',
    'Bash ',
    ' Read',
    'str-replace',
    'strReplace',
    'insert_text',
    'new_str',
    'Echo',
    'edit',
    'toString',
    'constructor',
    '__proto__',
    'hasOwnProperty',
    'valueOf',
    '',
  ];
  it.each(names)('%j', async (name) => {
    const { tools, execute } = setup();
    expect(await execute(name, { path: 'a', command: 'ls' })).toEqual({
      content: `unknown tool: ${name}`,
      is_error: true,
    });
    expect(tools.calls).toEqual([]);
  });
});

describe('with the real Tools', () => {
  let root = '';
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'theinference-execute-test-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads, writes, edits, inserts, globs, greps and runs through both names', async () => {
    await writeFile(join(root, 'a.txt'), 'A');
    const execute = makeExecute(new Tools(root));
    expect(await execute('Read', { path: 'a.txt' })).toEqual({ content: '1: A' });
    expect(await execute('Write', { path: 'b.txt', file_text: 'one\n' })).toEqual({
      content: 'File created successfully at: b.txt',
    });
    expect(await execute('str_replace', { path: 'b.txt', old_str: 'one', new_str: 'two' })).toEqual({
      content: 'The file b.txt has been edited.',
    });
    expect(await execute('insert', { path: 'b.txt', insert_line: 0, insert_text: 'zero' })).toEqual({
      content: 'Inserted text after line 0 of b.txt',
    });
    expect(await execute('view', { path: 'b.txt' })).toEqual({ content: '1: zero\n2: two' });
    expect(await execute('Glob', { pattern: '*.txt' })).toEqual({ content: 'a.txt\nb.txt' });
    expect(await execute('grep', { pattern: 'two' })).toEqual({ content: 'b.txt:2: two' });
    expect(await execute('Bash', { command: 'echo hi' })).toEqual({ content: 'hi\n', is_error: false, exit_code: 0 });
  });
});
