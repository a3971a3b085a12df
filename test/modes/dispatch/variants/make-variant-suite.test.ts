// The property over the real suite: for every case of register-tools and many seeds, the reference run on the
// variant gives what its snapshot holds, letter for letter aside (same results, same keys, same flags, the same
// lines with the same characters where they are not letters, in any order: renamed names sort differently). So a
// variant proves what its case proves, and a correct dispatcher passes it. And where a snapshot names a seeded file,
// the variant's results differ from it: stored results fail.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatch } from '../../../../src/modes/dispatch/driver.ts';
import { loadCases } from '../../../../src/course/load-cases.ts';
import type { DispatchCaseData } from '../../../../src/modes/dispatch/case.ts';
import { makeVariant } from '../../../../src/modes/dispatch/variants/make-variant.ts';
import { REPO } from '../../../support/reference-course.ts';

const STAGE = 'register-tools';
const SEEDS = [1, 2, 3, 17, 99, 2024, 65_537, 987_654_321];

// A result with its letters blotted out and its lines sorted: what renaming may not change.
function shape(value: unknown): unknown {
  if (typeof value === 'string')
    return value
      .replace(/[A-Za-z]/g, 'x')
      .split('\n')
      .sort();
  if (Array.isArray(value)) return value.map(shape);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, shape(v)]),
    );
  }
  return value;
}

// The cases whose results name nothing of the case (an unknown tool, an error about a key or a range, no matches):
// no renaming can change them, so their variant gives the same results. Every other variant's results differ from
// its snapshot. A new case belongs here only if its results, too, hold nothing the case seeds or names.
const NAME_FREE = [
  'bash-missing-command',
  'escape-absolute-path',
  'escape-dotdot',
  'escape-glob-pattern',
  'glob-and-grep-missing-pattern',
  'glob-no-files-found',
  'grep-glob-empty',
  'grep-invalid-regex',
  'grep-no-matches',
  'invalid-parameter-types',
  'optional-arguments-false-or-zero-invalid',
  'read-missing-path',
  'unknown-bash-trailing-space',
  'unknown-constructor',
  'unknown-empty-name',
  'unknown-has-own-property',
  'unknown-method-name-str-replace',
  'unknown-proto',
  'unknown-read-lowercase',
  'unknown-read-uppercase',
  'unknown-str-replace-hyphen',
  'unknown-to-string',
  'view-empty-file',
  // View's error for a range sent as JSON text names no file.
  'view-range-as-json-text',
  'view-range-empty',
  'view-range-end-out-of-range',
  'view-range-not-whole-numbers',
  'view-range-start-out-of-range',
];

const cases = (await loadCases(REPO, STAGE)).map((c) => ({ name: c.name, data: c.data as DispatchCaseData }));
const snapshot = async (name: string): Promise<unknown[]> =>
  (JSON.parse(await readFile(join(REPO, 'snapshots', STAGE, `${name}.json`), 'utf8')) as { results: unknown[] })
    .results;

describe.each(SEEDS)('seed %i', (seed) => {
  it("the reference gives every variant the results of its case, renamed, and different wherever they name the case's files", async () => {
    const unfaithful: string[] = [];
    const toothless: string[] = [];
    for (const c of cases) {
      const made = makeVariant(c, seed);
      if (!made.ok) continue;
      const expected = await snapshot(c.name);
      const results = JSON.parse(
        JSON.stringify(await dispatch(made.data as Parameters<typeof dispatch>[0])),
      ) as unknown[];
      if (JSON.stringify(shape(results)) !== JSON.stringify(shape(expected))) unfaithful.push(c.name);
      if (JSON.stringify(results) === JSON.stringify(expected)) toothless.push(c.name);
    }
    expect(unfaithful).toEqual([]);
    expect(toothless).toEqual(NAME_FREE);
  });
});

describe('the suite', () => {
  it('has a variant for every case but those with nothing to rename, the one that runs a script it writes and the one that cds into a directory it names in a command', () => {
    const none = cases.flatMap((c) => {
      const made = makeVariant(c, 1);
      return made.ok || made.why === 'nothing in it to rename' ? [] : [c.name];
    });
    // bash-heredoc-command names the file it writes inside a here-document, which no renaming of a command reaches.
    expect(none).toEqual(['bash-cd-not-kept', 'bash-heredoc-command', 'recorded-hello-world-script']);
  });
});
