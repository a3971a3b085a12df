// The docs hold together: every relative link in README.md and docs/ reaches a file (and, with an anchor, a
// heading of it); every docs/ page mentioned in the code exists, and a section it names by title is a heading of
// that page; every page says at its top who it is for and stays a size a person reads.
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// A page longer than this is two pages (issue: "each page a size a person reads").
const MAX_PAGE_LINES = 400;

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((e) =>
      e.isDirectory()
        ? markdownFiles(join(dir, e.name))
        : Promise.resolve(e.name.endsWith('.md') ? [join(dir, e.name)] : []),
    ),
  );
  return nested.flat().sort();
}

// GitHub's anchor for a heading: lower case, punctuation other than - and _ dropped, spaces as hyphens.
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

// Headings outside code fences, as their text.
function headings(text: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const m = fenced ? null : /^#{1,6} (.+)$/.exec(line);
    if (m?.[1] !== undefined) found.push(m[1]);
  }
  return found;
}

function withoutCode(text: string): string {
  return text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
}

const pages = await markdownFiles('docs');
const readable = ['README.md', ...pages];
const texts = new Map(
  await Promise.all(readable.map(async (p) => [p, await readFile(join(ROOT, p), 'utf8')] as const)),
);

async function exists(path: string): Promise<boolean> {
  return stat(join(ROOT, path)).then(
    () => true,
    () => false,
  );
}

describe('docs pages', () => {
  it.each(pages)('%s says at its top who it is for', (page) => {
    const top = (texts.get(page) ?? '').split('\n').slice(0, 6).join('\n');
    expect(top, `${page}: say in its first lines who it is for, as "**For a student**: …"`).toMatch(
      /\*\*For [^*]+\*\*/,
    );
  });

  it.each(pages)(`%s is at most ${MAX_PAGE_LINES} lines`, (page) => {
    const lines = (texts.get(page) ?? '').split('\n').length;
    expect(lines, `${page} has ${lines} lines: split it by reader or topic`).toBeLessThanOrEqual(MAX_PAGE_LINES);
  });

  it.each(readable)('every relative link of %s reaches a file and a heading', async (page) => {
    const broken: string[] = [];
    for (const m of withoutCode(texts.get(page) ?? '').matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] ?? '';
      if (/^[a-z]+:/.test(target)) continue;
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? page : normalize(join(dirname(page), path));
      if (!(await exists(file))) {
        broken.push(`${target}: no file ${file}`);
        continue;
      }
      if (anchor === undefined || file.endsWith('/')) continue;
      const text = texts.get(file) ?? (await readFile(join(ROOT, file), 'utf8'));
      if (!headings(text).map(slug).includes(anchor)) broken.push(`${target}: no heading #${anchor} in ${file}`);
    }
    expect(broken).toEqual([]);
  });
});

describe('doc pages named in the code', () => {
  it('exist, and have the sections the code names', async () => {
    const sources = [
      ...(await codeFiles('src')),
      ...(await codeFiles('bin')),
      ...(await codeFiles('test/support')),
      'program.ts',
      '.ci/run',
    ];
    const broken: string[] = [];
    for (const source of sources) {
      const text = await readFile(join(ROOT, source), 'utf8');
      // `docs/tools.md`, and `docs/tools.md, "Portable commands"` or `docs/grader.md "Isolation"`: a page and a section.
      for (const m of text.matchAll(/(?<![\w/.]|toolkit )docs\/([\w/.-]+\.md)(?:,? \(?"([^"]+)")?/g)) {
        const page = `docs/${m[1]}`;
        const pageText = texts.get(page);
        if (pageText === undefined) {
          broken.push(`${source}: ${page} does not exist`);
          continue;
        }
        const section = m[2];
        if (section !== undefined && !headings(pageText).some((h) => h.includes(section)))
          broken.push(`${source}: ${page} has no section "${section}"`);
      }
    }
    expect(broken).toEqual([]);
  });
});

async function codeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && /\.(ts|js|mjs)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}
