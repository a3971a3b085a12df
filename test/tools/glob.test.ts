import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../src/tools/index.ts';
import { type Seed, useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const error = (content: string): ToolOutput => ({ content, is_error: true });

const TREE: Seed = {
  'a.txt': '',
  'b.ts': '',
  'src/c.ts': '',
  'src/deep/d.ts': '',
  'src/.x.ts': '',
  '.env': '',
  '.hidden/h.ts': '',
  'empty/': '',
  link: { symlink: 'a.txt' },
  dirlink: { symlink: 'src' },
  out: { symlink: '<outside>' },
};

describe('glob', () => {
  const rows: Array<{ name: string; pattern: string; path?: string; expected: string }> = [
    {
      name: 'the course page example',
      pattern: '**',
      expected: 'a.txt\nb.ts\ndirlink\nlink\nout\nsrc/c.ts\nsrc/deep/d.ts',
    },
    { name: 'top level only', pattern: '*', expected: 'a.txt\nb.ts\ndirlink\nlink\nout' },
    {
      name: 'an extension at any depth, symlinked dirs not entered',
      pattern: '**/*.ts',
      expected: 'b.ts\nsrc/c.ts\nsrc/deep/d.ts',
    },
    { name: 'directories are not listed', pattern: 'src/*', expected: 'src/c.ts' },
    { name: 'a hidden file named', pattern: '.env', expected: '.env' },
    { name: 'hidden names matched by .*', pattern: '.*', expected: '.env' },
    { name: 'a hidden file named below a directory', pattern: 'src/.x.ts', expected: 'src/.x.ts' },
    { name: 'braces', pattern: '{a.txt,b.ts}', expected: 'a.txt\nb.ts' },
    { name: 'case-sensitive', pattern: 'A.TXT', expected: 'No files found' },
    { name: 'no match', pattern: '*.md', expected: 'No files found' },
    { name: 'relative to path', pattern: '**/*.ts', path: 'src', expected: 'c.ts\ndeep/d.ts' },
    { name: 'a symlink to a directory inside, named', pattern: 'dirlink/*', expected: 'dirlink/c.ts' },
    { name: '.. that stays inside', pattern: 'src/../*.ts', expected: 'b.ts' },
    { name: './ is dropped', pattern: './src/*.ts', expected: 'src/c.ts' },
    { name: 'a path through a symlink inside', pattern: '*.ts', path: 'dirlink', expected: 'c.ts' },
  ];
  it.each(rows)('$name', async ({ pattern, path, expected }) => {
    await box.seed(TREE);
    expect(await box.tools.glob(pattern, path)).toEqual({ content: expected });
  });

  it('makes an absolute pattern inside relative to the search directory', async () => {
    await box.seed(TREE);
    expect(await box.tools.glob(`${box.root}/src/*.ts`)).toEqual({ content: 'src/c.ts' });
    expect(await box.tools.glob(`${box.root}/src/**/*.ts`, 'src')).toEqual({ content: 'c.ts\ndeep/d.ts' });
  });

  it('sorts by code point, not by UTF-16 unit', async () => {
    // U+FF5A sorts before U+1F600 by code point; as UTF-16, 0xD83D (the emoji's first unit) is smaller.
    await box.seed({ '😀.txt': '', 'ｚ.txt': '', 'Z.txt': '', 'a.txt': '' });
    expect(await box.tools.glob('*')).toEqual({ content: 'Z.txt\na.txt\nｚ.txt\n😀.txt' });
  });
});

describe('glob: errors', () => {
  const rows: Array<{ name: string; pattern: unknown; path?: unknown; expected: ToolOutput }> = [
    { name: 'path missing', pattern: '*', path: 'nope', expected: error('Path not found: nope') },
    { name: 'path is a file', pattern: '*', path: 'a.txt', expected: error('Not a directory: a.txt') },
    { name: 'empty pattern', pattern: '', expected: error("Invalid parameter 'pattern': it must not be empty") },
    { name: 'pattern missing', pattern: undefined, expected: error("Missing required parameter 'pattern'") },
    {
      name: 'path not a string',
      pattern: '*',
      path: 3,
      expected: error("Invalid parameter 'path': expected a string, got number"),
    },
    { name: 'path escapes', pattern: '*', path: '..', expected: error('Path escapes workspace: ..') },
    { name: 'path is a symlink out', pattern: '*', path: 'out', expected: error('Path escapes workspace: out') },
    { name: '.. leaves the sandbox', pattern: '../**', expected: error('Path escapes workspace: ../**') },
    {
      name: '.. leaves the search directory',
      pattern: '../b.ts',
      path: 'src',
      expected: error('Path escapes workspace: ../b.ts'),
    },
    { name: '.. after a wildcard', pattern: '*/../*', expected: error('Path escapes workspace: */../*') },
    { name: 'an absolute pattern outside', pattern: '/etc/*', expected: error('Path escapes workspace: /etc/*') },
    { name: 'through a symlink out', pattern: 'out/*', expected: error('Path escapes workspace: out/*') },
    {
      name: 'a file through a symlink out',
      pattern: 'out/secret.txt',
      expected: error('Path escapes workspace: out/secret.txt'),
    },
    {
      name: 'a brace alternative through a symlink out',
      pattern: '{src,out}/*',
      expected: error('Path escapes workspace: {src,out}/*'),
    },
    {
      name: 'a brace alternative with ..',
      pattern: '{../outside/secret.txt,a.txt}',
      expected: error('Path escapes workspace: {../outside/secret.txt,a.txt}'),
    },
    {
      name: '.. in braces after a wildcard',
      pattern: '*/{..,x}/*',
      expected: error('Path escapes workspace: */{..,x}/*'),
    },
  ];
  it.each(rows)('$name', async ({ pattern, path, expected }) => {
    await box.seed(TREE);
    expect(await box.tools.glob(pattern, path)).toEqual(expected);
  });

  it('a symlink out made by bash', async () => {
    await box.tools.bash(`ln -s '${box.outside}' made`);
    expect(await box.tools.glob('made/*')).toEqual(error('Path escapes workspace: made/*'));
  });
});
