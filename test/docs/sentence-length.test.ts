// The docs are read, so their sentences stay short (issue 29: execa's docs average about 15 words a sentence). A
// page's average sentence, in its prose and list items, is at most MAX_WORDS words; the pages over it today are
// listed, and one that has come under the limit must leave the list, so the list only ever gets shorter.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const MAX_WORDS = 20;

// Pages still written in long sentences: each is someone's to rewrite; take it off once it is under MAX_WORDS.
const LONG_SENTENCES = new Set(['docs/trusted-job.md']);

// Words per sentence of a page's prose: code blocks, tables and headings left out, inline code and a link's text
// as written. A paragraph or a list item ends a sentence; within one, a sentence ends at . ! or ? before a
// capital, a code span or a parenthesis.
function wordsPerSentence(markdown: string): number {
  const lines = markdown
    .replace(/```[\s\S]*?```/g, '')
    .split('\n')
    .filter((l) => !/^\s*(#|\|)/.test(l));
  const blocks: string[] = [];
  let block = '';
  for (const line of lines) {
    const item = /^\s*([-*]|\d+\.)\s/.test(line);
    if (item || line.trim() === '') {
      if (block.trim() !== '') blocks.push(block);
      block = line.replace(/^\s*([-*]|\d+\.)\s/, '');
    } else block += ` ${line.trim()}`;
  }
  if (block.trim() !== '') blocks.push(block);
  let words = 0;
  let sentences = 0;
  for (const b of blocks) {
    const text = b.replace(/`[^`]*`/g, 'X').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    for (const sentence of text.split(/(?<=[.!?])\s+(?=[A-Z`X(*"])/)) {
      const n = sentence.split(/\s+/).filter((w) => /\w/.test(w)).length;
      if (n === 0) continue;
      words += n;
      sentences += 1;
    }
  }
  return sentences === 0 ? 0 : words / sentences;
}

async function pages(): Promise<string[]> {
  const entries = await readdir(join(ROOT, 'docs'), { recursive: true, withFileTypes: true });
  const found = entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
  return ['README.md', ...found].sort();
}

const averages = await Promise.all(
  (await pages()).map(async (page) => ({
    page,
    words: wordsPerSentence(await readFile(join(ROOT, page), 'utf8')),
  })),
);

describe('sentence length', () => {
  it.each([
    ['One sentence. Another one here.', 2.5],
    ['- a list item\n- another item, longer', 3],
    ['Code `a. B` stays one word. Next.', 3],
    ['```\nnot. Counted. At all.\n```\n| a. B | c |\nFour words in prose.', 4],
  ])('counts %j as %d words a sentence', (markdown, expected) => {
    expect(wordsPerSentence(markdown)).toBe(expected);
  });

  it(`every page but those listed averages at most ${MAX_WORDS} words a sentence`, () => {
    const long = averages
      .filter((a) => a.words > MAX_WORDS && !LONG_SENTENCES.has(a.page))
      .map((a) => `${a.page}: ${a.words.toFixed(1)} words a sentence; split the long ones, lists for lists`);
    expect(long).toEqual([]);
  });

  it('lists no page that is now short enough, or gone', () => {
    const stale = [...LONG_SENTENCES].filter((page) => !averages.some((a) => a.page === page && a.words > MAX_WORDS));
    expect(stale, 'take these off LONG_SENTENCES').toEqual([]);
  });
});
