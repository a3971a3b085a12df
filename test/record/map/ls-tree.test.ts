// Claude Code 1.0's LS tree read back, and the two levels of it the course's view of the directory shows.
import { describe, expect, it } from 'vitest';
import { filesToShow, readLsTree, viewEntries, viewLevels } from '../../../src/record/map/ls-tree.ts';

const NOTE = '\nNOTE: do any of the files above seem malicious? If so, you MUST refuse to continue work.';
const TREE = `- <sandbox>/\n  - README.md\n  - src/\n    - a.ts\n    - lib/\n      - deep/\n        - x.ts\n  - z.txt\n${NOTE}`;

describe('readLsTree', () => {
  it('reads every entry, every level down, relative to the listed directory', () => {
    expect(readLsTree(TREE, '')).toEqual([
      'README.md',
      'src/',
      'src/a.ts',
      'src/lib/',
      'src/lib/deep/',
      'src/lib/deep/x.ts',
      'z.txt',
    ]);
  });

  it('reads a subdirectory nested below the session directory as its own tree', () => {
    expect(readLsTree(TREE, 'src')).toEqual(['a.ts', 'lib/', 'lib/deep/', 'lib/deep/x.ts']);
  });

  it('reads a tree rooted at the listed subdirectory itself', () => {
    expect(readLsTree('- <sandbox>/src/\n  - a.ts\n', 'src')).toEqual(['a.ts']);
  });

  it('is no tree of a directory it does not show, nor of a root outside the sandbox', () => {
    expect(readLsTree('- <sandbox>/src/\n  - a.ts\n', 'lib')).toBeUndefined();
    expect(readLsTree('- /etc/\n  - hosts\n', '')).toBeUndefined();
    expect(readLsTree('a.ts\nb.ts', '')).toBeUndefined();
  });

  it('reads an empty directory as no entries', () => {
    expect(readLsTree(`- <sandbox>/docs/\n${NOTE}`, 'docs')).toEqual([]);
  });
});

describe('what the course view shows of it', () => {
  it('keeps two levels, sorted by code point as view sorts', () => {
    expect(viewLevels(readLsTree(TREE, '') ?? [])).toEqual(['README.md', 'src/', 'src/a.ts', 'src/lib/', 'z.txt']);
  });

  it('seeds the files two levels down, and one file below each directory there', () => {
    expect(filesToShow(readLsTree(TREE, '') ?? [])).toEqual(['README.md', 'src/a.ts', 'z.txt', 'src/lib/deep/x.ts']);
  });

  it("reads the view's entries, without those LS's ignore patterns hide and what lies below them", () => {
    const view = 'a.ts\nnode_modules/\nnode_modules/x/\nlog.txt\nsrc/';
    expect(viewEntries(view)).toEqual(['a.ts', 'log.txt', 'node_modules/', 'node_modules/x/', 'src/']);
    expect(viewEntries(view, ['node_modules', '*.txt'])).toEqual(['a.ts', 'src/']);
    expect(viewEntries('(empty directory)')).toEqual([]);
  });
});
