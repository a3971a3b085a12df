// The commands a kept Bash call may run: the course's portable set (docs/tools.md, "Portable commands"), the POSIX
// utilities every Linux and macOS has and the shell's own builtins. A recorded `… | jq .` reproduces on a machine
// with jq and fails with exit 127 on a student's without it, for a reason outside their code: such a command is
// dropped with its reason (or kept with --bash keep). A script the case itself makes (`./build.sh`,
// `<sandbox>/x.sh`) is run by path and counts as portable; what it runs is in the case for all to see.

import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// POSIX.1-2017 utilities (XCU) found on every Linux distribution's base system and on macOS.
const POSIX_UTILITIES: readonly string[] = `
awk basename cat chgrp chmod chown cksum cmp comm cp csplit cut date dd df diff dirname du echo env expand expr
false find fold grep head iconv id join kill link ln logname ls mkdir mkfifo mv nice nl nohup od paste pathchk
printf pwd rm rmdir sed sh sleep sort split stty tail tee test touch tr true tsort tty uname unexpand uniq
unlink wc xargs zcat
`
  .trim()
  .split(/\s+/);

// bash's builtins and keywords (`help` lists them), and bash itself: every command runs in it.
const SHELL_BUILTINS: readonly string[] = `
. : [ [[ alias bash bg break builtin caller case cd command compgen continue declare dirs disown do done elif
else enable esac eval exec exit export fc fg fi for function getopts hash help history if in jobs let local
logout mapfile popd pushd read readarray readonly return select set shift shopt source suspend then time times
trap type typeset ulimit umask unalias unset until wait while { } !
`
  .trim()
  .split(/\s+/);

// Every command a kept Bash call may name, as docs/tools.md lists them.
export const PORTABLE_COMMANDS: ReadonlySet<string> = new Set<string>([...POSIX_UTILITIES, ...SHELL_BUILTINS]);
export { POSIX_UTILITIES, SHELL_BUILTINS };

// Words after which the next word is a command again (`xargs rm`, `nohup ./x`, `time make`).
const RUNS_NEXT: ReadonlySet<string> = new Set(
  'xargs nohup nice env command exec time builtin then do else elif if while until ! {'.split(' '),
);

// The commands a shell line runs, in order, as far as its text says: the first word of each simple command (after
// `|`, `;`, `&&`, `||`, `&`, `(`, `$(`, a backquote or a newline), past variable assignments and redirections, and
// the word a wrapper runs (`xargs rm`). Quoted text and here-document bodies are data, not commands.
export function commandNames(command: string): string[] {
  const names: string[] = [];
  // `<sandbox>/x.sh` is a path (the placeholder's `<` is no redirection).
  const plain = command.split(SANDBOX).join('/sandbox');
  for (const segment of segments(withoutHeredocs(plain))) {
    const words = segment
      .trim()
      .split(/\s+/)
      .filter((w) => w !== '');
    let at = 0;
    for (;;) {
      while (at < words.length && (isAssignment(words[at] as string) || isRedirection(words[at] as string)))
        at += takesTarget(words[at] as string) ? 2 : 1;
      const word = words[at];
      if (word === undefined) break;
      // `for x in a b`, `case $x in`: the rest up to `do` or `in` is a name and words.
      if (word === 'for' || word === 'select' || word === 'case') {
        names.push(word);
        break;
      }
      names.push(word);
      if (!RUNS_NEXT.has(word)) break;
      at++;
      // A wrapper's own options (`xargs -n 1 rm`, `env -i x`, `nice -n 5 x`): skip them and their values.
      while (at < words.length && (words[at] as string).startsWith('-'))
        at += /^-[nPILsd]$/.test(words[at] as string) ? 2 : 1;
    }
  }
  return names;
}

// The commands of a shell line outside the portable set (a script run by path is the case's own).
export function foreignCommands(command: string): string[] {
  const foreign = commandNames(command).filter(
    (name) => !PORTABLE_COMMANDS.has(name) && !name.includes('/') && !/^[\\$"'`(]/.test(name),
  );
  return [...new Set(foreign)];
}

// The line with every here-document's body taken out (`cat <<'EOF' > x\n…\nEOF` keeps `cat <<'EOF' > x`).
function withoutHeredocs(command: string): string {
  const lines = command.split('\n');
  const out: string[] = [];
  const ends: string[] = [];
  for (const line of lines) {
    if (ends.length > 0) {
      if (line.replace(/^\t+/, '') === ends[0]) ends.shift();
      continue;
    }
    out.push(line);
    for (const match of line.matchAll(/<<-?\s*(['"]?)([\w.-]+)\1/g)) ends.push(match[2] as string);
  }
  return out.join('\n');
}

// The simple commands of a line, with quoted text blanked (its words are data) and the inside of `$(…)` and
// backquotes, quoted or not, as commands of their own.
function segments(command: string): string[] {
  let text = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (c === '\\' && quote !== "'") {
      i++;
      continue;
    }
    // A `#` starting a word outside quotes starts a comment, to the end of its line: words, not commands
    // (`# build it\nmake`, `cat a # b`). In a word (`a#b`, `$#`, `${#x}`) it is no comment.
    if (quote === undefined && c === '#' && (i === 0 || /[\s;&|()]/.test(command[i - 1] as string))) {
      const end = command.indexOf('\n', i);
      if (end === -1) break;
      i = end - 1;
      continue;
    }
    if (quote === undefined && (c === "'" || c === '"')) {
      quote = c;
      text += ' "" ';
      continue;
    }
    if (quote !== undefined && c === quote) {
      quote = undefined;
      continue;
    }
    if (quote === '"' && c === '$' && command[i + 1] === '(') {
      const end = closingParen(command, i + 2);
      text += `\n${command.slice(i + 2, end)}\n`;
      i = end;
      continue;
    }
    if (quote === undefined) text += c;
  }
  // `2>&1`, `&>out`, `>&2` are redirections, not the `&` that ends a command.
  const unambiguous = text.replace(/([<>])&/g, '$1').replace(/&>/g, '>');
  return unambiguous.split(/\|\||&&|[|;&\n`]|\$\(|\(|\)/);
}

// The index of the `)` that closes a `$(` opened before `from` (or the end of the text).
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

const isAssignment = (word: string): boolean => /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
// A redirection, with its target attached (`2>/dev/null`, `>out`) or as the next word (`> out`).
const isRedirection = (word: string): boolean => /^\d*(?:[<>]|&>)/.test(word);
const takesTarget = (word: string): boolean => /^(?:\d*(?:>>?|<<?<?|>&|<&)|&>>?)$/.test(word);
