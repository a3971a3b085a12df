// How each kind of string is renamed, through a map easy to read (shift-map.ts).
import { describe, expect, it } from 'vitest';
import {
  CannotRename,
  renameGlob,
  renamePath,
  renameRegex,
  renameText,
  type Renaming,
} from '../../../../src/modes/dispatch/variants/rename-text.ts';
import { shift } from '../../../grade/variants/shift-map.ts';

const r: Renaming = { map: shift, outside: new Set(['host', 'deep/link']) };

describe('renameText', () => {
  it.each([
    ['hello world\n', 'ifmmp xpsme\n'],
    ['$& $1 $$5', '$& $1 $$5'],
    ['see <sandbox>/a.txt', 'tff <sandbox>/b.uyu'],
  ])('%j becomes %j', (text, renamed) => expect(renameText(text, r)).toBe(renamed));
});

describe('renamePath', () => {
  it.each([
    ['a.txt', 'b.uyu', 'a name inside'],
    ['src/deep/.env', 'tsd/effq/.fow', 'directories and hidden names (the dot stays)'],
    ['./src/', './tsd/', 'dots and slashes'],
    ['<sandbox>/notes/todo.md', '<sandbox>/opuft/upep.ne', 'under the placeholder'],
    ['<sandbox>', '<sandbox>', 'the sandbox itself'],
    ['<sandbox>-other/a.txt', '<sandbox>-other/a.txt', 'a sibling of the sandbox: outside'],
    ['/etc/hosts', '/etc/hosts', 'absolute, elsewhere'],
    ['../a.txt', '../a.txt', 'above the root'],
    ['sub/../../a.txt', 'sub/../../a.txt', 'above the root, later'],
    ['src/../a.txt', 'tsd/../b.uyu', 'a .. that stays inside'],
    ['host/hosts', 'iptu/hosts', 'through a link out of the sandbox: the link renamed, what follows kept'],
    ['deep/link/x', 'effq/mjol/x', 'through a nested link out'],
    ['deep/other/x', 'effq/puifs/y', 'beside it'],
  ])('%j becomes %j (%s)', (path, renamed) => expect(renamePath(path, r)).toBe(renamed));
});

describe('renameGlob', () => {
  it.each([
    ['**/*.ts', '**/*.ut'],
    ['src/{a,b}?.md', 'tsd/{b,c}?.ne'],
    ['[a-z]*.[A-Z]x', '[a-z]*.[A-Z]y'],
    ['[ab]*', '[bc]*'],
    ['../*', '../*'],
    ['/etc/*', '/etc/*'],
    ['<sandbox>/src/*.ts', '<sandbox>/tsd/*.ut'],
  ])('%j becomes %j', (glob, renamed) => expect(renameGlob(glob, r)).toBe(renamed));

  it.each([['[a-c]*'], ['x[[:alpha:]]']])(
    'refuses %j, which renamed letters would make mean something else',
    (glob) => {
      expect(() => renameGlob(glob, r)).toThrow(CannotRename);
    },
  );
});

describe('renameRegex', () => {
  it.each([
    ['^fo+$', '^gp+$'],
    ['let [ab]', 'mfu [bc]'],
    ['^[A-Z]', '^[A-Z]'],
    ['\\d+\\s\\bword\\b', '\\d+\\s\\bxpse\\b'],
    ['a\\.b\\(c', 'b\\.c\\(d'],
    ['(?<name>x)', '(?<obnf>y)'],
    ['[\\w-]', '[\\w-]'],
  ])('%j becomes %j', (pattern, renamed) => expect(renameRegex(pattern, r)).toBe(renamed));

  it.each([['\\x41'], ['\\u0041'], ['[a-f]'], ['\\p{L}'], ['\\k<n>']])('refuses %j', (pattern) => {
    expect(() => renameRegex(pattern, r)).toThrow(CannotRename);
  });
});
