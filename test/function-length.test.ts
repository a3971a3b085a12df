// No function in src/ runs over MAX_LINES (STYLE.md: long orchestrators become named steps, or a machine where
// they hold a lifecycle). The functions over it today are listed with their length: one may shrink, none may grow,
// and a listed one that has come under the limit must leave the list, so the list only ever gets shorter.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const MAX_LINES = 100;

// `file name`: lines today. Each is someone's to split (issue 29 lists who); shorten the number as it shrinks.
const TOO_LONG: Record<string, number> = {};

type Length = { key: string; lines: number };

// Every function with a body (declarations, methods, arrows, function expressions), named by its declaration or
// the variable or property it is assigned to; an inner function is counted on its own and inside its outer one.
function functionLengths(file: string, text: string): Length[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Length[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const line = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
      const parent = node.parent;
      const name =
        node.name?.getText(source) ??
        (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)
          ? parent.name.getText(source)
          : `(anonymous, line ${line(node.getStart(source)) + 1})`);
      found.push({ key: `${file} ${name}`, lines: line(node.getEnd()) - line(node.getStart(source)) + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(join(ROOT, 'src'), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .sort();
}

const lengths = (
  await Promise.all((await sourceFiles()).map(async (f) => functionLengths(f, await readFile(join(ROOT, f), 'utf8'))))
).flat();

describe('function length', () => {
  it(`finds the functions of src/, the long ones too`, () => {
    expect(lengths.length).toBeGreaterThan(500);
    expect(lengths.find((l) => l.key === 'src/grade/run-stage.ts gradeCourse')?.lines).toBeGreaterThan(50);
  });

  it(`no function over ${MAX_LINES} lines but those listed, and none of those longer than listed`, () => {
    const over = lengths
      .filter((l) => l.lines > MAX_LINES && l.lines > (TOO_LONG[l.key] ?? 0))
      .map((l) => `${l.key}: ${l.lines} lines (split it into named steps, see STYLE.md)`);
    expect(over).toEqual([]);
  });

  it('lists no function that is now short enough, or gone', () => {
    const stale = Object.keys(TOO_LONG).filter((key) => !lengths.some((l) => l.key === key && l.lines > MAX_LINES));
    expect(stale, 'take these off TOO_LONG: they are within the limit now, or gone').toEqual([]);
  });
});
