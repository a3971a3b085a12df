import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../src/tools/index.ts';
import { type Seed, useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const error = (content: string): ToolOutput => ({ content, is_error: true });

const TREE: Seed = {
  'a.txt': 'hello\nworld\nhello again\n',
  'B.txt': 'hello upper\n',
  'src/b.ts': 'const hello = 1;\r\nexport {};\r\n',
  'src/deep/c.ts': 'say hello',
  'src/z.md': 'hello md\n',
  '.env': 'hello secret\n',
  '.hidden/x.txt': 'hello hidden\n',
  'bin.dat': Buffer.from('hello\u0000binary\n'),
  link: { symlink: 'a.txt' },
  out: { symlink: '<outside>' },
};

describe('grep', () => {
  const all = [
    'B.txt:1: hello upper',
    'a.txt:1: hello',
    'a.txt:3: hello again',
    'src/b.ts:1: const hello = 1;',
    'src/deep/c.ts:1: say hello',
    'src/z.md:1: hello md',
  ].join('\n');
  const rows: Array<{ name: string; pattern: string; path?: string; glob?: string; expected: string }> = [
    { name: 'every match, by file then line; hidden, binary and symlinks skipped', pattern: 'hello', expected: all },
    { name: 'a regex, per line', pattern: '^h.*o$', expected: 'a.txt:1: hello' },
    { name: 'the \\r is not part of the line', pattern: '1;$', expected: 'src/b.ts:1: const hello = 1;' },
    { name: 'no flags: case-sensitive', pattern: 'HELLO', expected: 'No matches found' },
    {
      name: 'a directory, names still relative to the root',
      pattern: 'hello',
      path: 'src',
      expected: 'src/b.ts:1: const hello = 1;\nsrc/deep/c.ts:1: say hello\nsrc/z.md:1: hello md',
    },
    { name: 'a single file', pattern: 'hello', path: 'src/deep/c.ts', expected: 'src/deep/c.ts:1: say hello' },
    {
      name: 'a single file whatever glob says',
      pattern: 'hello',
      path: 'src/deep/c.ts',
      glob: '*.md',
      expected: 'src/deep/c.ts:1: say hello',
    },
    { name: 'a hidden file named', pattern: 'hello', path: '.env', expected: '.env:1: hello secret' },
    {
      name: 'inside a hidden directory named',
      pattern: 'hello',
      path: '.hidden',
      expected: '.hidden/x.txt:1: hello hidden',
    },
    {
      name: 'glob without / matches names at any depth',
      pattern: 'hello',
      glob: '*.ts',
      expected: 'src/b.ts:1: const hello = 1;\nsrc/deep/c.ts:1: say hello',
    },
    {
      name: 'glob with / is relative to the searched directory',
      pattern: 'hello',
      path: 'src',
      glob: 'deep/*.ts',
      expected: 'src/deep/c.ts:1: say hello',
    },
    {
      name: 'glob with / does not match at other depths',
      pattern: 'hello',
      glob: 'deep/*.ts',
      expected: 'No matches found',
    },
    {
      name: 'glob ./ anchors to the top',
      pattern: 'hello',
      glob: './*.txt',
      expected: 'B.txt:1: hello upper\na.txt:1: hello\na.txt:3: hello again',
    },
    { name: 'no match', pattern: 'zzz', expected: 'No matches found' },
    {
      name: 'an empty pattern matches every line',
      pattern: '',
      path: 'a.txt',
      expected: 'a.txt:1: hello\na.txt:2: world\na.txt:3: hello again',
    },
    { name: 'an absolute path inside', pattern: 'world', path: '<root>/a.txt', expected: 'a.txt:2: world' },
  ];
  it.each(rows)('$name', async ({ pattern, path, glob, expected }) => {
    await box.seed(TREE);
    expect(await box.tools.grep(pattern, path?.replace('<root>', box.root), glob)).toEqual({ content: expected });
  });
});

describe('grep: errors', () => {
  const rows: Array<{ name: string; pattern: unknown; path?: unknown; glob?: unknown; expected: ToolOutput }> = [
    {
      name: 'invalid regex',
      pattern: '(',
      expected: error('Invalid regex: Invalid regular expression: /(/: Unterminated group'),
    },
    {
      name: 'invalid regex before path',
      pattern: '[',
      path: 'nope',
      expected: error('Invalid regex: Invalid regular expression: /[/: Unterminated character class'),
    },
    { name: 'path missing', pattern: 'x', path: 'nope', expected: error('Path not found: nope') },
    { name: 'pattern missing', pattern: undefined, expected: error("Missing required parameter 'pattern'") },
    {
      name: 'glob not a string',
      pattern: 'x',
      glob: ['*.ts'],
      expected: error("Invalid parameter 'glob': expected a string, got array"),
    },
    { name: 'glob empty', pattern: 'x', glob: '', expected: error("Invalid parameter 'glob': it must not be empty") },
    {
      name: 'path escapes',
      pattern: 'secret',
      path: '../outside',
      expected: error('Path escapes workspace: ../outside'),
    },
    {
      name: 'path through a symlink out',
      pattern: 'secret',
      path: 'out',
      expected: error('Path escapes workspace: out'),
    },
    {
      name: 'an absolute path outside',
      pattern: 'root',
      path: '/etc/passwd',
      expected: error('Path escapes workspace: /etc/passwd'),
    },
    {
      name: 'glob through a symlink out',
      pattern: 'secret',
      glob: 'out/*',
      expected: error('Path escapes workspace: out/*'),
    },
    {
      name: 'glob leaving by ..',
      pattern: 'secret',
      glob: '../outside/*',
      expected: error('Path escapes workspace: ../outside/*'),
    },
  ];
  it.each(rows)('$name', async ({ pattern, path, glob, expected }) => {
    await box.seed(TREE);
    expect(await box.tools.grep(pattern, path, glob)).toEqual(expected);
  });
});
