// The files the sandbox shows a program process of the package are exactly what the driver loads: every module its
// entry reaches (static imports and literal dynamic ones) is among DRIVER_FILES, so a new import cannot go missing
// in the sandbox unnoticed, and nothing of the package's reference is among them.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { STAGES } from '../../src/course/stages.ts';
import { driverEntry, driverFiles } from '../../src/modes/driver-files.ts';
import { type Aspect, aspectUrl, MODE_NAMES } from '../../src/modes/mode-table.ts';
import { REPO } from '../support/reference-course.ts';

// The relative modules `file` loads when it runs (a type-only import loads nothing), as absolute paths; an aspect
// reached by a mode's name (src/modes/mode-table.ts) is that aspect of every mode of the table.
function relativeImports(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const statements = source.matchAll(/^(?!import type|export type)(?:import|export)\b[^;]*?from\s*'(\.\.?\/[^']+)'/gm);
  const dynamic = source.matchAll(/import\(\s*'(\.\.?\/[^']+)'\s*\)/g);
  const found = [...statements, ...dynamic].map((m) => resolve(dirname(file), m[1]!));
  const aspects = [...source.matchAll(/\bimport\(\s*aspectUrl\([^,()]*,\s*'([\w-]+)'\)\.href\s*\)/g)];
  return [
    ...found,
    ...aspects.flatMap((m) => MODE_NAMES.map((name) => fileURLToPath(aspectUrl(name, m[1] as Aspect)))),
  ];
}

// Every module the driver entry reaches through relative imports.
function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...relativeImports(file));
  }
  return seen;
}

describe('driverFiles', () => {
  const files = driverFiles();
  const covered = (file: string): boolean =>
    files.some((f) => f === file || (statSync(f).isDirectory() && !relative(f, file).startsWith('..')));

  it('covers every module the driver reaches', () => {
    const reached = [...closure(driverEntry())];
    expect(reached.length).toBeGreaterThan(5);
    for (const name of MODE_NAMES) expect(reached).toContain(join(REPO, 'src/modes', name, 'driver.ts'));
    expect(reached.filter((file) => !covered(file)).map((file) => relative(REPO, file))).toEqual([]);
  });

  it('names only files that exist, and none of the reference a student writes', () => {
    expect(files.filter((f) => !existsSync(f))).toEqual([]);
    for (const secret of STAGES.flatMap((s) => s.writes)) expect(covered(join(REPO, secret)), secret).toBe(false);
  });

  it("names not the dispatcher contract's table: which name reaches which method is register-tools' answer", () => {
    expect(covered(join(REPO, 'src/course/dispatcher-contract.ts'))).toBe(false);
  });
});
