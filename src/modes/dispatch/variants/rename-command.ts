// A Bash command renamed with its case: the files it names (arguments of the commands that take paths, and
// redirection targets), and the text it writes into a file (echo's and printf's arguments when their output is
// redirected to one). Everything else is the shell's and stays: command names, options, numbers, variables.
// A command that names a file of the case in any other way (runs it, hands it to a command this does not know)
// gives the case no variant.
import { isLetter, mapAll } from '../../../grade/variants/letter-map.ts';
import { CannotRename, renameGlob, type Renaming } from './rename-text.ts';
import { shellCommands, type SimpleCommand, type Word } from './shell-words.ts';

// Commands whose arguments, past their options, are paths (chmod's first is its mode).
const TAKES_PATHS = new Set([
  'cat',
  'ls',
  'mkdir',
  'rmdir',
  'touch',
  'rm',
  'cp',
  'mv',
  'ln',
  'chmod',
  'wc',
  'head',
  'tail',
]);
// Commands that print their arguments: text, renamed when it goes into a file.
const PRINTS = new Set(['echo', 'printf']);
// Commands whose arguments are neither paths nor text that reaches a file.
const INERT = new Set(['seq', 'yes', 'sleep', 'pwd', 'kill', 'exit', 'true', 'false', 'tr']);

// What a command says about the sandbox before anything is renamed: the paths it names, and the links it makes
// that lead out of the sandbox (`ln -s /etc host`), as the case spells them.
export function scanCommand(command: string): { paths: string[]; links: { target: string; name: string }[] } {
  const paths: string[] = [];
  const links: { target: string; name: string }[] = [];
  for (const simple of shellCommands(command) ?? []) {
    const words = pathWords(simple);
    paths.push(...words.map((w) => w.text));
    const [name, ...args] = simple.words.map((w) => w.text);
    const operands = args.filter((a) => !a.startsWith('-'));
    if (name === 'ln' && args.some((a) => /^-\w*s/.test(a)) && operands.length === 2) {
      links.push({ target: operands[0] as string, name: operands[1] as string });
    }
  }
  return { paths, links };
}

// The command with its case's names renamed; `names` are the names of the case's files and directories (path
// segments as the case spells them), to tell a command that mentions one in a way this cannot follow.
export function renameCommand(command: string, r: Renaming, names: ReadonlySet<string>): string {
  const commands = shellCommands(command);
  if (commands === undefined) {
    if (mentions(command, names))
      throw new CannotRename(`its Bash command ${JSON.stringify(command)} is past what a variant can rename`);
    return command;
  }
  const edits = new Map<number, string>();
  const rename = (word: Word, renamed: string): void => {
    word.chars.forEach((c, k) => {
      if (renamed[k] !== c.ch) edits.set(c.at, renamed[k] as string);
    });
  };
  for (const simple of commands) {
    const [first, ...args] = simple.words;
    const name = first?.text ?? '';
    const known = TAKES_PATHS.has(name) || PRINTS.has(name) || INERT.has(name);
    if (first !== undefined && (!known || first.chars.some((c) => c.expansion))) {
      if (simple.words.some((w) => mentions(w.text, names)) || name.includes('/')) {
        throw new CannotRename(
          `its Bash command runs ${JSON.stringify(name)} on the case's files, which a variant cannot follow`,
        );
      }
      continue;
    }
    for (const word of pathWords(simple)) {
      if (word.chars.some((c) => c.expansion))
        throw new CannotRename(`its Bash command names a path through a variable`);
      rename(word, renameGlob(word.text, r));
    }
    if (PRINTS.has(name) && writesFile(simple)) {
      for (const [k, word] of args.entries()) rename(word, renamePrinted(word, r, name === 'printf' && k === 0));
    } else if (INERT.has(name) && args.some((w) => mentions(w.text, names))) {
      throw new CannotRename(`its Bash command hands a file of the case to ${name}`);
    }
  }
  return [...command].map((ch, at) => edits.get(at) ?? ch).join('');
}

// The words of a simple command that are paths: redirection targets, and the operands of a command that takes
// paths.
function pathWords(simple: SimpleCommand): Word[] {
  const targets = simple.redirects.flatMap((r) => r.target ?? []);
  const [first, ...args] = simple.words;
  if (first === undefined || !TAKES_PATHS.has(first.text)) return targets;
  const operands = args.filter((w) => !w.text.startsWith('-'));
  return [...targets, ...(first.text === 'chmod' ? operands.slice(1) : operands)];
}

// Whether the command's output goes into a file (not `>&2`, not /dev/null).
function writesFile(simple: SimpleCommand): boolean {
  return simple.redirects.some(
    (r) => r.op.endsWith('>') && r.target !== undefined && !r.target.text.startsWith('/dev/'),
  );
}

// An argument of echo or printf, renamed as the text it prints: letters of expansions, of escapes (`\n`) and of
// printf's conversions (`%s`) are the shell's and stay, as do leading options (`-e`).
function renamePrinted(word: Word, r: Renaming, format: boolean): string {
  if (/^-[neE]+$/.test(word.text)) return word.text;
  const keep = new Set<number>();
  word.chars.forEach((c, k) => {
    if (c.expansion || (word.text[k - 1] === '\\' && isLetter(c.ch))) keep.add(k);
  });
  if (format) {
    for (const m of word.text.matchAll(/%[-+ #0]*\d*(?:\.\d+)?[A-Za-z]/g)) keep.add((m.index ?? 0) + m[0].length - 1);
  }
  return [...word.text].map((ch, k) => (keep.has(k) ? ch : mapAll(ch, r.map))).join('');
}

// Whether `text` holds one of `names` as a word of its own (between characters a path name cannot end at).
function mentions(text: string, names: ReadonlySet<string>): boolean {
  return text.split(/[^A-Za-z0-9._-]+/).some((w) => names.has(w));
}
