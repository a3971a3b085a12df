// A Windows session's paths in POSIX terms.
import { describe, expect, it } from 'vitest';
import {
  dashEncoded,
  isWindowsPath,
  posixListing,
  posixPaths,
  windowsSpellings,
} from '../../../src/record/formats/windows-paths.ts';

describe('windows paths', () => {
  it.each([
    ['C:\\Users\\alex', true],
    ['c:/x', true],
    ['/c/Users/alex', false],
    ['C:', false],
    ['/home/alex', false],
  ])('isWindowsPath(%j) is %s', (path, expected) => {
    expect(isWindowsPath(path)).toBe(expected);
  });

  it('spells a directory with backslashes, forward slashes and as Git Bash does', () => {
    expect(windowsSpellings('C:\\Users\\alex\\shop\\')).toEqual([
      'C:\\Users\\alex\\shop',
      'C:/Users/alex/shop',
      '/c/Users/alex/shop',
    ]);
  });

  it("dash-encodes as Claude Code's projects do", () => {
    expect(dashEncoded('C:\\Users\\alex\\shop')).toBe('C--Users-alex-shop');
  });

  it('makes path inputs /-separated, and nothing else', () => {
    expect(posixPaths({ file_path: 'src\\a.ts', path: '<sandbox>\\b', command: 'echo a\\nb' })).toEqual({
      file_path: 'src/a.ts',
      path: '<sandbox>/b',
      command: 'echo a\\nb',
    });
  });

  it.each([
    ['paths', 'Found 2 files\nsrc\\a.ts\nsrc\\lib\\b.ts', 'Found 2 files\nsrc/a.ts\nsrc/lib/b.ts'],
    ['lines', 'src\\a.ts:3:  const re = /\\d+/;\nno match shape', 'src/a.ts:3:  const re = /\\d+/;\nno match shape'],
  ] as const)("makes a listing's %s /-separated, leaving the text of a line alone", (mode, content, expected) => {
    expect(posixListing(content, mode)).toBe(expected);
  });
});
