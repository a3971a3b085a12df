// The subset of Bash a variant reads: simple commands, quoted words, expansions marked, redirections.
import { describe, expect, it } from 'vitest';
import { shellCommands } from '../../../../src/modes/dispatch/variants/shell-words.ts';

// Each simple command as its words' values, and its redirections as `op target`.
const read = (command: string) =>
  shellCommands(command)?.map((c) => ({
    words: c.words.map((w) => w.text),
    redirects: c.redirects.map((r) => (r.target === undefined ? r.op : `${r.op} ${r.target.text}`)),
  }));

describe('shellCommands', () => {
  it.each([
    ['cat a.txt', [{ words: ['cat', 'a.txt'], redirects: [] }]],
    [
      "mkdir -p src && printf \"a\\nb\" > src/x.js; echo 'it''s' >> y",
      [
        { words: ['mkdir', '-p', 'src'], redirects: [] },
        { words: ['printf', 'a\\nb'], redirects: ['> src/x.js'] },
        { words: ['echo', 'its'], redirects: ['>> y'] },
      ],
    ],
    [
      'echo oops >&2; exit 3',
      [
        { words: ['echo', 'oops'], redirects: ['>&2'] },
        { words: ['exit', '3'], redirects: [] },
      ],
    ],
    [
      'yes abc | head -c 31000',
      [
        { words: ['yes', 'abc'], redirects: [] },
        { words: ['head', '-c', '31000'], redirects: [] },
      ],
    ],
    ['rm <sandbox>/a <sandbox>/b/', [{ words: ['rm', '<sandbox>/a', '<sandbox>/b/'], redirects: [] }]],
    ['echo "$HOME|$((6 * 7))" \\"x', [{ words: ['echo', '$HOME|$((6 * 7))', '"x'], redirects: [] }]],
  ])('%j', (command, expected) => expect(read(command)).toEqual(expected));

  it('marks what expansions produce, and says where each character of a word is', () => {
    const [simple] = shellCommands('echo "a$HOME"b') ?? [];
    const word = simple?.words[1];
    expect(word?.chars.map((c) => [c.ch, c.at, c.expansion])).toEqual([
      ['a', 6, false],
      ['$', 7, true],
      ['H', 8, true],
      ['O', 9, true],
      ['M', 10, true],
      ['E', 11, true],
      ['b', 13, false],
    ]);
  });

  it.each([
    ['echo $(cat a)'],
    ['echo `cat a`'],
    ['(cd src && ls)'],
    ['cat <<EOF'],
    ['X=1 cat a'],
    ['echo "unterminated'],
    ['ls # comment'],
    ['{ ls; }'],
    ['ls &> out'],
  ])('%j is past the subset', (command) => expect(shellCommands(command)).toBeUndefined());
});
