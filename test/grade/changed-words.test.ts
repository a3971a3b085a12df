// Which words a save changed, and which cases name them: the order a watch-mode save runs its cases in.
import { describe, expect, it } from 'vitest';
import { casesNaming, changedWords, wordsOf } from '../../src/grade/changed-words.ts';

const words = (...list: string[]) => new Set(list);

describe('wordsOf', () => {
  it.each<[string, string, string[]]>([
    ['identifiers, lower-cased', "case 'Read': return tools.view(input);", ['read', 'tools', 'view', 'input']],
    ['a JSON case file', '{ "tool": "Read", "input": { "path": "a.txt" } }', ['tool', 'read', 'input', 'path', 'txt']],
    ['one-letter names and syntax left out', 'const x = await f(a, b) as string;', []],
    ['snake and dollar names whole', 'file_path $ref', ['file_path', '$ref']],
  ])('%s', (_, text, expected) => {
    expect([...wordsOf(text)]).toEqual(expected);
  });
});

describe('changedWords', () => {
  const before = ['switch (name) {', "  case 'Read':", "  case 'view':", '    return tools.view(input);', '}'].join(
    '\n',
  );

  it.each<[string, string | undefined, string | undefined, string[]]>([
    ['a removed line names its words', before, before.replace("  case 'Read':\n", ''), ['read', 'execute']],
    [
      'an added line names its words',
      before,
      before.replace('}', "  case 'Grep': return tools.grep(input);\n}"),
      ['grep', 'tools', 'input', 'execute'],
    ],
    [
      'a line moved is no change; the file name still counts',
      before,
      before.split('\n').reverse().join('\n'),
      ['execute'],
    ],
    ['a line re-indented is no change', before, before.replace("  case 'Read':", "      case 'Read':"), ['execute']],
    ['a new file names all of it', undefined, "export const readTool = 'Read';", ['readtool', 'read', 'execute']],
    ['a deleted file names all it held', 'const grepTool = 1;', undefined, ['greptool', 'execute']],
  ])('%s', (_, from, to, expected) => {
    expect([...changedWords([{ path: '/course/src/execute.ts', before: from, after: to }])].sort()).toEqual(
      [...expected].sort(),
    );
  });

  it('names nothing for a file saved unchanged', () => {
    expect(changedWords([{ path: '/course/src/tools/read.ts', before: 'x', after: 'x' }]).size).toBe(0);
  });

  it("names a tool's file by its name", () => {
    expect([...changedWords([{ path: '/course/src/tools/read.ts', before: 'a = 1', after: 'a = 2' }])]).toEqual([
      'read',
    ]);
  });
});

describe('casesNaming', () => {
  const cases = [
    { name: 'glob-basic', words: words('tool', 'glob', 'pattern') },
    { name: 'read-basic', words: words('tool', 'read', 'path') },
    { name: 'read-range', words: words('tool', 'read', 'path', 'view_range') },
    { name: 'write-basic', words: words('tool', 'write', 'path') },
    { name: 'bash-basic', words: words('tool', 'bash', 'command') },
  ];

  it.each<[string, string[], string[]]>([
    ['the cases naming a changed word, in their order', ['read'], ['read-basic', 'read-range']],
    ['most changed words first', ['read', 'view_range'], ['read-range', 'read-basic']],
    ['a word more than half the cases name tells nothing', ['tool', 'path'], []],
    ['a word no case names tells nothing', ['execute'], []],
    ['several tools, each of their cases', ['glob', 'bash'], ['glob-basic', 'bash-basic']],
  ])('%s', (_, changed, expected) => {
    expect(casesNaming(cases, new Set(changed))).toEqual(expected);
  });
});
