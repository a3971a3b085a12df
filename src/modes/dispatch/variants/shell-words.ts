// The words of a Bash command, as far as a variant needs them: simple commands split at `;`, `&&`, `||`, `|`, `&`
// and newlines, each word's literal characters with where they stand in the command, and redirections with their
// targets. Anything past that (subshells, command substitution, here-documents, backquotes, comments,
// assignments) is `undefined`: the caller then leaves the command alone or gives the case no variant.
import { SANDBOX } from '../../../course/sandbox-placeholder.ts';

// One character of a word's value: where it is in the command, and whether it comes from an expansion (`$HOME`,
// `$((6 * 7))`), which the shell, not the case, decides.
export type WordChar = { ch: string; at: number; expansion: boolean };

// A word: its characters, and its value as text (quotes removed, expansions as written).
export type Word = { chars: WordChar[]; text: string };

// A redirection: its operator (`>`, `>>`, `<`, `2>`, `>&`…) and the file it names (none for `>&2`).
export type Redirect = { op: string; target?: Word };

// A simple command: its words (the first is the command) and its redirections.
export type SimpleCommand = { words: Word[]; redirects: Redirect[] };

const SEPARATORS = ['&&', '||', '|&', ';', '|', '&', '\n'];
const REDIRECT = /^(\d*)(>>|>&|>|<&|<<|<)/;

// The simple commands of `command`, or undefined when it uses a construct past the subset above.
export function shellCommands(command: string): SimpleCommand[] | undefined {
  const commands: SimpleCommand[] = [];
  let current: SimpleCommand = { words: [], redirects: [] };
  let i = 0;
  const end = (): void => {
    if (current.words.length > 0 || current.redirects.length > 0) commands.push(current);
    current = { words: [], redirects: [] };
  };
  while (i < command.length) {
    const ch = command[i] as string;
    if (ch === ' ' || ch === '\t') {
      i += 1;
      continue;
    }
    if (command.startsWith('&>', i)) return undefined;
    const separator = SEPARATORS.find((s) => command.startsWith(s, i));
    if (separator !== undefined) {
      end();
      i += separator.length;
      continue;
    }
    if ('()`#{}'.includes(ch)) return undefined;
    const redirect = command.startsWith(SANDBOX, i) ? null : REDIRECT.exec(command.slice(i));
    if (redirect) {
      const op = redirect[0];
      if (op.endsWith('<<')) return undefined;
      i += op.length;
      while (command[i] === ' ' || command[i] === '\t') i += 1;
      if (op.endsWith('&')) {
        const fd = /^(\d+|-)/.exec(command.slice(i));
        if (fd === null) return undefined;
        current.redirects.push({ op: op + fd[0] });
        i += fd[0].length;
        continue;
      }
      const target = readWord(command, i);
      if (target === undefined || target.word.chars.length === 0) return undefined;
      current.redirects.push({ op, target: target.word });
      i = target.next;
      continue;
    }
    const read = readWord(command, i);
    if (read === undefined) return undefined;
    // `X=1 cmd` sets the environment of cmd: what it then does with X is past this subset.
    if (current.words.length === 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(read.word.text)) return undefined;
    current.words.push(read.word);
    i = read.next;
  }
  end();
  return commands;
}

// The word starting at `start`, or undefined for a construct past the subset.
function readWord(command: string, start: number): { word: Word; next: number } | undefined {
  const chars: WordChar[] = [];
  const literal = (at: number): void => void chars.push({ ch: command[at] as string, at, expansion: false });
  // The expansion at `at`, pushed as such: its length, or undefined for one past the subset.
  const expansion = (at: number): number | undefined => {
    const length = expansionLength(command, at);
    for (let k = at; k < at + (length ?? 0); k++) chars.push({ ch: command[k] as string, at: k, expansion: true });
    return length;
  };
  let i = start;
  while (i < command.length) {
    if (command.startsWith(SANDBOX, i)) {
      for (let k = 0; k < SANDBOX.length; k++) literal(i + k);
      i += SANDBOX.length;
      continue;
    }
    const ch = command[i] as string;
    if (' \t\n;&|<>()'.includes(ch)) break;
    if (ch === '`') return undefined;
    if (ch === "'") {
      const close = command.indexOf("'", i + 1);
      if (close === -1) return undefined;
      for (let k = i + 1; k < close; k++) literal(k);
      i = close + 1;
    } else if (ch === '"') {
      i += 1;
      while (command[i] !== '"') {
        if (i >= command.length || command[i] === '`') return undefined;
        if (command[i] === '\\' && '$`"\\\n'.includes(command[i + 1] ?? '')) {
          literal(i + 1);
          i += 2;
        } else if (command[i] === '$') {
          const length = expansion(i);
          if (length === undefined) return undefined;
          i += length;
        } else {
          literal(i);
          i += 1;
        }
      }
      i += 1;
    } else if (ch === '\\') {
      if (i + 1 >= command.length) return undefined;
      literal(i + 1);
      i += 2;
    } else if (ch === '$') {
      const length = expansion(i);
      if (length === undefined) return undefined;
      i += length;
    } else {
      literal(i);
      i += 1;
    }
  }
  return { word: { chars, text: chars.map((c) => c.ch).join('') }, next: i };
}

// How long the expansion starting with the `$` at `at` is: `$NAME`, `${…}`, `$((…))`, `$$`, `$?`, `$1`; a lone
// `$` is one literal character; undefined for command substitution `$(…)`.
function expansionLength(command: string, at: number): number | undefined {
  const rest = command.slice(at);
  if (rest.startsWith('$((')) {
    let depth = 0;
    for (let k = 1; k < rest.length; k++) {
      if (rest[k] === '(') depth += 1;
      if (rest[k] === ')') depth -= 1;
      if (depth === 0) return k + 1;
    }
    return undefined;
  }
  if (rest.startsWith('$(')) return undefined;
  if (rest.startsWith('${')) {
    const close = rest.indexOf('}');
    return close === -1 ? undefined : close + 1;
  }
  const name = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9$?#!@*-])/.exec(rest);
  return name === null ? 1 : name[0].length;
}
