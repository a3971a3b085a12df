// How each kind of string in a case is renamed: text (every letter), a path (the part inside the sandbox), a glob
// and a regex (their letters, never their syntax). Where renaming could change what a string means, it stops
// with CannotRename instead of guessing: the case then has no variant.
import { SANDBOX } from '../../../course/sandbox-placeholder.ts';
import { isLetter, mapAll, type LetterMap } from '../../../grade/variants/letter-map.ts';

// What renaming needs: the letter map, and the links that lead out of the sandbox (paths relative to it, as the
// case spells them): whatever follows one in a path is outside, and stays as written.
export type Renaming = { map: LetterMap; outside: ReadonlySet<string> };

// Why a case has no variant: something in it would mean something else renamed.
export class CannotRename extends Error {}

// Text a tool stores or compares (file contents, old_str, insert_text…): every letter, `<sandbox>` kept.
export function renameText(text: string, r: Renaming): string {
  return text
    .split(SANDBOX)
    .map((part) => mapAll(part, r.map))
    .join(SANDBOX);
}

// A path as a tool reads it. Inside the sandbox (relative, or under `<sandbox>/`) every name is renamed; a path that
// leaves it (absolute elsewhere, `..` above the root, `<sandbox>-other`) stays as written, as does whatever follows a
// link that leads out. `segment` renames one name (a glob's names keep their wildcards).
export function renamePath(path: string, r: Renaming, segment: (name: string) => string = (s) => mapAll(s, r.map)) {
  if (path.startsWith(SANDBOX)) {
    const rest = path.slice(SANDBOX.length);
    if (rest !== '' && !rest.startsWith('/')) return path;
    return SANDBOX + renameRelative(rest, r, segment);
  }
  if (path.startsWith('/')) return path;
  return renameRelative(path, r, segment);
}

// A glob pattern (Glob's pattern, Grep's glob): a path whose names may hold wildcards, classes and braces.
export function renameGlob(pattern: string, r: Renaming): string {
  return renamePath(pattern, r, (name) => renameGlobName(name, r));
}

// A JavaScript regular expression (Grep's pattern): its literal letters, not the letters of its escapes.
export function renameRegex(pattern: string, r: Renaming): string {
  return renamePattern(pattern, r, {
    escape: (next) => {
      if (isLetter(next) && !CLASS_ESCAPES.includes(next)) {
        throw new CannotRename(`its grep pattern ${JSON.stringify(pattern)} has the escape \\${next}`);
      }
      return next;
    },
    posixClasses: false,
  });
}

// Escapes whose letter is syntax (classes, anchors, control characters), kept as they are: a renamed \d would be
// another escape or none.
const CLASS_ESCAPES = 'dDwWsSbBnrtfv';

function renameRelative(path: string, r: Renaming, segment: (name: string) => string): string {
  const inside: string[] = [];
  let through = false;
  const out: string[] = [];
  for (const name of path.split('/')) {
    if (name === '..') {
      // Above the sandbox's root: the path leaves it, and its names are not the case's.
      if (inside.length === 0) return path;
      inside.pop();
      out.push(name);
    } else if (name === '' || name === '.' || through) {
      out.push(name);
    } else {
      inside.push(name);
      out.push(segment(name));
      if (r.outside.has(inside.join('/'))) through = true;
    }
  }
  return out.join('/');
}

// One name of a glob: letters renamed (an escaped one is a literal letter), except inside a POSIX class.
function renameGlobName(name: string, r: Renaming): string {
  return renamePattern(name, r, { escape: r.map, posixClasses: true });
}

// A pattern's letters renamed, `escape` saying what a backslash's next character becomes, and ranges in character
// classes checked; `posixClasses`: `[:alpha:]` inside a class is a class of its own (globs), which renamed letters
// would break.
function renamePattern(
  text: string,
  r: Renaming,
  how: { escape: (next: string) => string; posixClasses: boolean },
): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (text.startsWith(SANDBOX, i)) {
      out += SANDBOX;
      i += SANDBOX.length - 1;
    } else if (ch === '\\') {
      out += ch + how.escape(text[i + 1] ?? '');
      i += 1;
    } else if (how.posixClasses && inClass && ch === '[' && text[i + 1] === ':') {
      throw new CannotRename(`its glob ${JSON.stringify(text)} has a POSIX character class`);
    } else if (inClass && text[i + 1] === '-' && text[i + 2] !== undefined && text[i + 2] !== ']') {
      out += range(text.slice(i, i + 3), text);
      i += 2;
    } else {
      if (ch === '[' && !inClass) inClass = true;
      else if (ch === ']' && inClass) inClass = false;
      out += r.map(ch);
    }
  }
  return out;
}

// A range in a character class. `a-z` and `A-Z` mean every letter of a case, renamed or not, so they stay; any
// other range with a letter at an end would cover other letters once renamed.
function range(text: string, whole: string): string {
  if (text === 'a-z' || text === 'A-Z') return text;
  if (!isLetter(text[0]) && !isLetter(text[2])) return text;
  throw new CannotRename(`${JSON.stringify(whole)} has the range ${text}, which renamed letters would change`);
}
