import { describe, expect, it } from 'vitest';
import type { ToolOutput } from '../../src/tools/index.ts';
import { type Seed, useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const FIVE = 'l1\nl2\nl3\nl4\nl5\n';

type Row = { name: string; files: Seed; path: string; range?: unknown; expected: ToolOutput };

const ok = (content: string): ToolOutput => ({ content });
const error = (content: string): ToolOutput => ({ content, is_error: true });

describe('view: files', () => {
  const rows: Row[] = [
    { name: 'the course page example', files: { 'a.txt': 'A' }, path: 'a.txt', expected: ok('1: A') },
    {
      name: 'a trailing newline adds no line',
      files: { 'a.txt': 'a\nb\n' },
      path: 'a.txt',
      expected: ok('1: a\n2: b'),
    },
    { name: 'blank lines are numbered', files: { 'a.txt': 'a\n\nb' }, path: 'a.txt', expected: ok('1: a\n2: \n3: b') },
    { name: 'a lone newline is one empty line', files: { 'a.txt': '\n' }, path: 'a.txt', expected: ok('1: ') },
    {
      name: 'the \\r of \\r\\n is not shown',
      files: { 'a.txt': 'a\r\nb\r\n' },
      path: 'a.txt',
      expected: ok('1: a\n2: b'),
    },
    { name: 'a \\r at the very end is shown', files: { 'a.txt': 'a\r' }, path: 'a.txt', expected: ok('1: a\r') },
    { name: 'UTF-8 text', files: { 'a.txt': 'héllo 😀\n' }, path: 'a.txt', expected: ok('1: héllo 😀') },
    { name: 'an empty file', files: { 'e.txt': '' }, path: 'e.txt', expected: ok('(empty file)') },
    {
      name: 'an empty file ignores view_range',
      files: { 'e.txt': '' },
      path: 'e.txt',
      range: [1, 1],
      expected: ok('(empty file)'),
    },
    { name: 'a nested path', files: { 'src/a.ts': 'x' }, path: 'src/a.ts', expected: ok('1: x') },
    {
      name: 'a symlink to a file inside',
      files: { 'a.txt': 'A', link: { symlink: 'a.txt' } },
      path: 'link',
      expected: ok('1: A'),
    },
    { name: 'range [2, 3]', files: { 'f.txt': FIVE }, path: 'f.txt', range: [2, 3], expected: ok('2: l2\n3: l3') },
    { name: 'range [3, 3]', files: { 'f.txt': FIVE }, path: 'f.txt', range: [3, 3], expected: ok('3: l3') },
    {
      name: 'range [4, -1] reads to the end',
      files: { 'f.txt': FIVE },
      path: 'f.txt',
      range: [4, -1],
      expected: ok('4: l4\n5: l5'),
    },
    {
      name: 'range [1, 5] is the whole file',
      files: { 'f.txt': FIVE },
      path: 'f.txt',
      range: [1, 5],
      expected: ok('1: l1\n2: l2\n3: l3\n4: l4\n5: l5'),
    },
    { name: 'null view_range is no range', files: { 'a.txt': 'A' }, path: 'a.txt', range: null, expected: ok('1: A') },
    {
      name: 'binary file',
      files: { 'b.bin': Buffer.from([0x61, 0x00, 0x62]) },
      path: 'b.bin',
      expected: error('Cannot display binary file: b.bin'),
    },
    { name: 'missing file', files: {}, path: 'nope.txt', expected: error('File not found: nope.txt') },
    {
      name: 'missing below a file',
      files: { 'a.txt': 'A' },
      path: 'a.txt/x',
      expected: error('File not found: a.txt/x'),
    },
  ];
  it.each(rows)('$name', async ({ files, path, range, expected }) => {
    await box.seed(files);
    expect(await box.tools.view(path, range)).toEqual(expected);
  });

  it('opens an absolute path inside the sandbox, and names it as sent', async () => {
    await box.seed({ 'a.txt': 'A' });
    expect(await box.tools.view(`${box.root}/a.txt`)).toEqual(ok('1: A'));
    expect(await box.tools.view(`${box.root}/b.txt`)).toEqual(error(`File not found: ${box.root}/b.txt`));
  });
});

describe('view: view_range errors', () => {
  const shape = (json: string) => error(`Invalid view_range: expected [start, end] with whole numbers, got ${json}`);
  const start = (s: number, e: number) =>
    error(`Invalid view_range [${s}, ${e}]: start must be between 1 and 5 (the file has 5 lines)`);
  const end = (s: number, e: number) =>
    error(`Invalid view_range [${s}, ${e}]: end must be between ${s} and 5, or -1 for the end of the file`);
  const rows: Array<{ range: unknown; expected: ToolOutput }> = [
    { range: '[1, 2]', expected: shape('"[1, 2]"') },
    { range: [1], expected: shape('[1]') },
    { range: [1, 2, 3], expected: shape('[1,2,3]') },
    { range: [1.5, 2], expected: shape('[1.5,2]') },
    { range: ['1', 2], expected: shape('["1",2]') },
    { range: [1, null], expected: shape('[1,null]') },
    { range: { start: 1, end: 2 }, expected: shape('{"start":1,"end":2}') },
    { range: 3, expected: shape('3') },
    { range: [0, 2], expected: start(0, 2) },
    { range: [-1, 2], expected: start(-1, 2) },
    { range: [6, 6], expected: start(6, 6) },
    { range: [6, -1], expected: start(6, -1) },
    { range: [3, 2], expected: end(3, 2) },
    { range: [2, 6], expected: end(2, 6) },
    { range: [2, -2], expected: end(2, -2) },
    { range: [2, 0], expected: end(2, 0) },
  ];
  it.each(rows)('$range', async ({ range, expected }) => {
    await box.seed({ 'f.txt': FIVE });
    expect(await box.tools.view('f.txt', range)).toEqual(expected);
  });

  it('checks the shape of view_range before the path', async () => {
    expect(await box.tools.view('nope.txt', [1])).toEqual(shape('[1]'));
  });
});

describe('view: directories', () => {
  const tree: Seed = {
    'a.txt': '',
    'B.txt': '',
    'src/b.ts': '',
    'src/sub/c.ts': '',
    'src/sub/deeper/d.ts': '',
    'src/.env': '',
    '.hidden/x.txt': '',
    'src-x/y.ts': '',
    'empty/': '',
    dirlink: { symlink: 'src' },
    out: { symlink: '<outside>' },
  };
  const rows: Array<{ name: string; files: Seed; path: string; expected: ToolOutput }> = [
    {
      name: 'two levels, dirs marked, hidden skipped, symlinks not entered, code point order',
      files: tree,
      path: '.',
      expected: ok('B.txt\na.txt\ndirlink\nempty/\nout\nsrc-x/\nsrc-x/y.ts\nsrc/\nsrc/b.ts\nsrc/sub/'),
    },
    { name: 'relative to the directory', files: tree, path: 'src', expected: ok('b.ts\nsub/\nsub/c.ts\nsub/deeper/') },
    { name: 'the empty path is the root', files: { 'a.txt': '' }, path: '', expected: ok('a.txt') },
    { name: 'an empty directory', files: { 'empty/': '' }, path: 'empty', expected: ok('(empty directory)') },
    { name: 'only hidden entries', files: { 'd/.x': '' }, path: 'd', expected: ok('(empty directory)') },
    {
      name: 'a symlink to a directory inside is listed',
      files: tree,
      path: 'dirlink',
      expected: ok('b.ts\nsub/\nsub/c.ts\nsub/deeper/'),
    },
  ];
  it.each(rows)('$name', async ({ files, path, expected }) => {
    await box.seed(files);
    expect(await box.tools.view(path)).toEqual(expected);
  });

  it('refuses a view_range on a directory', async () => {
    await box.seed({ 'src/a.ts': '' });
    expect(await box.tools.view('src', [1, 2])).toEqual(
      error('view_range is not allowed when path is a directory: src'),
    );
  });
});

describe('view: truncation at 50,000 characters', () => {
  // Every numbered line is exactly 98 characters ("N: " + padding), 99 with its newline: 505 lines fit
  // (99 * 505 - 1 = 49,994), the 506th would not (50,093).
  const padded = (n: number) => 'x'.repeat(96 - String(n).length);
  const numbered = (n: number) => `${n}: ${padded(n)}`;
  const thousand = Array.from({ length: 1000 }, (_, i) => `${padded(i + 1)}\n`).join('');
  const span = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => numbered(from + i)).join('\n');

  const rows: Array<{ name: string; text: string; range?: unknown; expected: string }> = [
    {
      name: 'whole lines that fit, then how to read on',
      text: thousand,
      expected: `${span(1, 505)}\n[truncated: showing lines 1-505 of 1000; call view with view_range [506, 1000] to read the rest]`,
    },
    {
      name: 'a range is cut the same way and read on to its own end',
      text: thousand,
      range: [10, 900],
      expected: `${span(10, 514)}\n[truncated: showing lines 10-514 of 1000; call view with view_range [515, 900] to read the rest]`,
    },
    {
      name: 'a range with end -1 reads on to the last line',
      text: thousand,
      range: [400, -1],
      expected: `${span(400, 904)}\n[truncated: showing lines 400-904 of 1000; call view with view_range [905, 1000] to read the rest]`,
    },
    {
      name: 'exactly 50,000 characters are not truncated',
      text: 'x'.repeat(49_997),
      expected: `1: ${'x'.repeat(49_997)}`,
    },
    {
      name: 'a first line too long is cut at 50,000',
      text: `${'x'.repeat(60_000)}\nshort\n`,
      expected: `1: ${'x'.repeat(49_997)}\n[truncated: line 1 of 2 was cut at 50000 characters]`,
    },
    {
      name: 'a cut never splits a surrogate pair',
      text: `${'x'.repeat(49_996)}😀`,
      expected: `1: ${'x'.repeat(49_996)}\n[truncated: line 1 of 1 was cut at 50000 characters]`,
    },
    {
      name: 'the first line of a range is the one cut',
      text: `short\n${'y'.repeat(60_000)}\nz\n`,
      range: [2, 3],
      expected: `2: ${'y'.repeat(49_997)}\n[truncated: line 2 of 3 was cut at 50000 characters]`,
    },
  ];
  it.each(rows)('$name', async ({ text, range, expected }) => {
    await box.seed({ 'big.txt': text });
    expect(await box.tools.view('big.txt', range)).toEqual(ok(expected));
  });
});
