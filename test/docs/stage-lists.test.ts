// Every list of the stages in the docs is the table of stages (src/course/stages.ts), in course order: a row added
// there fails here, naming the page and the list that lacks it, until the docs say it too (docs/adding-a-stage.md).
import { readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STAGES, type Stage } from '../../src/course/stages.ts';
import { schemaOf } from '../../src/modes/mode-table.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (page: string): Promise<string> => readFile(join(ROOT, page), 'utf8');

// A stage's page as a link from `page`: `[title](path)`.
const link = (page: string, s: Stage): string => `[${s.title}](${relative(dirname(page), s.doc)})`;
// The markdown links of `text`, in order.
const links = (text: string): string[] => [...text.matchAll(/\[[^\]]+\]\([^)]+\)/g)].map((m) => m[0]);
// `text` from `marker` up to the first `until` after it (a blank line: the paragraph; a line: the table row).
function from(text: string, marker: string, until = '\n\n'): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`no ${JSON.stringify(marker)}`);
  const end = text.indexOf(until, at);
  return text.slice(at, end < 0 ? undefined : end);
}
// The lines of `text` that match `pattern`.
const lines = (text: string, pattern: RegExp): string[] => text.split('\n').filter((l) => pattern.test(l));

// Each list: its page, what it is, the list as the page holds it and as the table gives it.
const LISTS: [string, string, (text: string) => string[], string[]][] = [
  [
    'README.md',
    "the student's row of Where to read",
    (text) => links(from(text, '| a student | the stage you are on |', '\n')),
    STAGES.map((s) => link('README.md', s)),
  ],
  [
    'README.md',
    'the stages in course order',
    (text) =>
      lines(from(text, 'The stages, in course order', '\n## '), /^\d+\. \*\*/).map(
        (l) => /^\d+\. \*\*[^*]+\*\* \(`[^`]+`\)/.exec(l)?.[0] ?? l,
      ),
    STAGES.map((s, k) => `${k + 1}. **${s.title}** (\`${s.slug}\`)`),
  ],
  [
    'docs/README.md',
    'the stage pages, by stage',
    (text) =>
      lines(text, /\| stage \d+, /)
        .map((l) => /^\| (\[[^\]]+\]\([^)]+\)) \| (stage \d+, [^:|]+)/.exec(l)?.slice(1).join(' ') ?? l)
        .sort(),
    STAGES.map((s, k) => `[${relative('docs', s.doc)}](${relative('docs', s.doc)}) stage ${k + 1}, ${s.title}`).sort(),
  ],
  [
    'docs/course.md',
    'the table of stages',
    (text) => lines(text, /^\| `[a-z-]+` \| /),
    STAGES.map(
      (s) =>
        `| \`${s.slug}\` | ${s.title} | \`${s.mode}\` | cases/${schemaOf(s.mode)} | \`${s.writes[0]}\` | [${relative('docs', s.doc)}](${relative('docs', s.doc)}) |`,
    ),
  ],
  [
    'docs/getting-started.md',
    'the stage pages',
    (text) => links(from(text, "Each stage's contract has its\nown page:")),
    STAGES.map((s) => link('docs/getting-started.md', s)),
  ],
  [
    'docs/getting-started.md',
    'the files init writes that the student writes',
    (text) =>
      lines(text, /^\| `src\/[\w-]+\.ts` \(/).map((l) => /^\| `([^`]+)` \(([^)]+)\)/.exec(l)!.slice(1).join(' ')),
    STAGES.flatMap((s) => s.writes.map((f) => `${f} ${s.slug}`)),
  ],
  [
    'docs/architecture.md',
    'the reference modules',
    (text) =>
      [
        ...from(text, "each stage's reference module")
          .split(')')[0]!
          .matchAll(/`(src\/[\w-]+\.ts)`/g),
      ]
        .map((m) => m[1]!)
        .filter((f) => f !== 'src/course/stages.ts'),
    STAGES.map((s) => s.writes[0]!),
  ],
];

describe('the docs list the stages of the table', () => {
  it.each(LISTS)('%s: %s', async (page, what, held, wanted) => {
    expect(held(await read(page)), `${page}, ${what}: make it list every stage of src/course/stages.ts`).toEqual(
      wanted,
    );
  });
});
