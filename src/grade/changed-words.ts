// Which cases a save most likely breaks, from what changed: the words of the lines a save added or removed (and
// the changed file's own name), matched against the words of each case's file. A save that drops `case 'Read':`
// names Read; the cases whose calls name Read run first, and the failure the student made shows at once
// (issue 37). It only orders what runs first: a case it misses still runs, a moment later.
//
// Hand-written: a line diff as multisets and a tokenizer are a few lines each; a diff library would add an
// ordered diff the ranking never reads.
import { basename, extname } from 'node:path';

// The words of a language's own syntax: they name no tool, no key, no case.
const SYNTAX = new Set(
  (
    'as async await boolean break case catch class const continue default do else export extends false finally ' +
    'for from function if import in instanceof interface let new null number of return string switch this throw ' +
    'true try type typeof undefined var void while'
  ).split(' '),
);

// The words of `text`: identifiers, lower-cased, two characters at least, none of the language's own.
export function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.matchAll(/[A-Za-z_$][A-Za-z0-9_$]*/g)) {
    const word = match[0].toLowerCase();
    if (word.length >= 2 && !SYNTAX.has(word)) words.add(word);
  }
  return words;
}

// One file a save touched: its path and its text before and after (undefined where it did not exist).
export type FileChange = { path: string; before: string | undefined; after: string | undefined };

// The words of every line a change added or removed (lines compared as multisets, so a line moved is no change),
// and each changed file's name without its extension (src/tools/read.ts says `read`).
export function changedWords(changes: readonly FileChange[]): Set<string> {
  const words = new Set<string>();
  for (const change of changes) {
    if (change.before === change.after) continue;
    const counts = new Map<string, number>();
    for (const line of lines(change.before)) counts.set(line, (counts.get(line) ?? 0) + 1);
    for (const line of lines(change.after)) counts.set(line, (counts.get(line) ?? 0) - 1);
    for (const [line, count] of counts) if (count !== 0) for (const word of wordsOf(line)) words.add(word);
    for (const word of wordsOf(basename(change.path, extname(change.path)))) words.add(word);
  }
  return words;
}

function lines(text: string | undefined): string[] {
  return text === undefined ? [] : text.split('\n').map((line) => line.trim());
}

// The names of the cases that name a changed word, most such words first (ties in the order given). A word most
// cases name (`input`, `content`) tells nothing about which will fail, so only words at most half of them name
// count.
export function casesNaming(
  cases: ReadonlyArray<{ name: string; words: ReadonlySet<string> }>,
  changed: ReadonlySet<string>,
): string[] {
  const most = Math.max(1, Math.floor(cases.length / 2));
  const telling = [...changed].filter((word) => {
    const naming = cases.filter((c) => c.words.has(word)).length;
    return naming > 0 && naming <= most;
  });
  return cases
    .map((c, i) => ({ name: c.name, i, score: telling.filter((word) => c.words.has(word)).length }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((c) => c.name);
}
