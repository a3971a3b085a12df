// docs/ci-recipes.md read as its reader reads it: `## ` sections, each a recipe with its label (grade or feedback)
// and its fenced blocks, so that the static checks and the simulation take each recipe's own text from the page.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { REPO } from '../reference-course.ts';

export type Block = { lang: string; code: string };
export type Recipe = { title: string; kind: string | undefined; blocks: Block[] };

// The page's `## ` sections, each with its fenced blocks.
export function recipes(page: string): Recipe[] {
  return page
    .split(/^## /m)
    .slice(1)
    .map((section) => {
      const title = section.slice(0, section.indexOf('\n'));
      const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
      return { title, kind: /\((grade|feedback)\)$/.exec(title)?.[1], blocks };
    });
}

// The recipes of `docs/<page>` that hold a block.
export async function readRecipes(page = 'ci-recipes.md'): Promise<Recipe[]> {
  return recipes(await readFile(join(REPO, 'docs', page), 'utf8')).filter((r) => r.blocks.length > 0);
}

// The `n`th block in `lang` of the recipe titled `title`; fails naming what is missing.
export function block(all: Recipe[], title: string, lang: string, n = 0): string {
  const found = all.find((r) => r.title === title)?.blocks.filter((b) => b.lang === lang)[n];
  if (found === undefined) throw new Error(`no ${lang} block ${n} in the recipe "${title}"`);
  return found.code;
}
