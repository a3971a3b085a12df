// Bash commands renamed with their case: paths and the text written into files, never the shell's own words.
import { describe, expect, it } from 'vitest';
import { renameCommand, scanCommand } from '../../../../src/modes/dispatch/variants/rename-command.ts';
import { CannotRename, type Renaming } from '../../../../src/modes/dispatch/variants/rename-text.ts';
import { shift } from '../../../grade/variants/shift-map.ts';

const r: Renaming = { map: shift, outside: new Set(['host']) };
const names = new Set(['a.txt', 'src', 'host', 'hello.sh']);

describe('renameCommand', () => {
  it.each([
    ['cat a.txt; echo "|"', 'cat b.uyu; echo "|"', 'a path argument; echo to stdout left alone'],
    [
      'mkdir -p src && printf "let a;\\n%s" > src/x.js',
      'mkdir -p tsd && printf "mfu b;\\n%s" > tsd/y.kt',
      "printf's text into a file, its escapes and conversions kept",
    ],
    ['echo "let c;" > src/y.js', 'echo "mfu d;" > tsd/z.kt', "echo's text into a file"],
    ['echo "$HOME|$LANG" > out', 'echo "$HOME|$LANG" > pvu', 'variables in it stay'],
    ['echo oops >&2; exit 3', 'echo oops >&2; exit 3', 'to stderr: not a file'],
    ['seq 1 20000 > big.txt', 'seq 1 20000 > cjh.uyu', 'a redirection target'],
    [
      'head -c 60000 /dev/zero | tr "\\0" a > long.txt',
      'head -c 60000 /dev/zero | tr "\\0" a > mpoh.uyu',
      'tr and /dev',
    ],
    ['ln -s /etc host', 'ln -s /etc iptu', 'a link out: its name renamed, its target not'],
    ['cat host/hosts', 'cat iptu/hosts', 'what follows the link stays'],
    ['chmod +x <sandbox>/a.sh', 'chmod +x <sandbox>/b.ti', "chmod's mode"],
    ['rm -r <sandbox>/tests/', 'rm -r <sandbox>/uftut/', 'options and a trailing slash'],
    ['echo $((6 * 7))', 'echo $((6 * 7))', 'nothing of the case'],
    ['kill -TERM $$', 'kill -TERM $$', 'an inert command'],
    ['python3 -c "print(1)"', 'python3 -c "print(1)"', 'an unknown command that names no file of the case'],
    ['echo $(date)', 'echo $(date)', 'past the subset, naming no file of the case'],
    ['tr a b < a.txt > src', 'tr a b < b.uyu > tsd', "an inert command's redirections"],
  ])('%j becomes %j (%s)', (command, renamed) => expect(renameCommand(command, r, names)).toBe(renamed));

  it.each([
    ['chmod +x <sandbox>/hello.sh && <sandbox>/hello.sh', 'runs a file'],
    ['python3 a.txt', 'hands a file to a command it does not know'],
    ['cat $(ls src)', 'past the subset, naming a file'],
    ['tr x y a.txt', 'a file handed to an inert command'],
    ['cat $DIR/a.txt', 'a path through a variable'],
  ])('%j gives the case no variant (%s)', (command) => {
    expect(() => renameCommand(command, r, names)).toThrow(CannotRename);
  });
});

describe('scanCommand', () => {
  it('finds the paths a command names and the links it makes', () => {
    expect(scanCommand('mkdir -p src && ln -s /etc host > log; cat x')).toEqual({
      paths: ['src', 'log', '/etc', 'host', 'x'],
      links: [{ target: '/etc', name: 'host' }],
    });
  });
});
