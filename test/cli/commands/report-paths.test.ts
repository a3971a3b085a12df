// Where a class's files go: --output as a {name} pattern or a directory, never one file for many and never inside a
// submission; --summary's extension names its format.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  classPagePath,
  fileNameOf,
  fileNamesOf,
  reportPaths,
  summaryPath,
} from '../../../src/cli/commands/report-paths.ts';
import type { HarnessError } from '../../../src/errors.ts';

let root = '';
let subs: { name: string; dir: string }[] = [];
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-report-paths-'));
  await mkdir(join(root, 'reports'));
  subs = ['alice', 'bob'].map((name) => ({ name, dir: join(root, 'subs', name) }));
  for (const s of subs) await mkdir(s.dir, { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const paths = async (output: string, reporter: 'junit' | 'gradescope' | 'pretty' = 'junit') =>
  Object.fromEntries(
    [...(await reportPaths(root, output, subs, reporter))].map(([n, f]) => [n, f.slice(root.length + 1)]),
  );
const refusal = (work: Promise<unknown>) =>
  work.then(
    () => 'no error',
    (e: HarnessError) => e.message,
  );

describe('reportPaths', () => {
  it.each<[string, 'junit' | 'gradescope' | 'pretty', Record<string, string>]>([
    ['reports/{name}.xml', 'junit', { alice: 'reports/alice.xml', bob: 'reports/bob.xml' }],
    ['reports/junit-{name}.xml', 'junit', { alice: 'reports/junit-alice.xml', bob: 'reports/junit-bob.xml' }],
    ['reports', 'junit', { alice: 'reports/alice.xml', bob: 'reports/bob.xml' }],
    ['reports/', 'gradescope', { alice: 'reports/alice.json', bob: 'reports/bob.json' }],
    ['reports', 'pretty', { alice: 'reports/alice.txt', bob: 'reports/bob.txt' }],
  ])('%j (%s) gives each submission its file', async (output, reporter, expected) => {
    expect(await paths(output, reporter)).toEqual(expected);
  });

  it.each([
    [
      'results.xml',
      /^--output "results\.xml" names one file for 2 submissions: give a directory .* or a pattern, e\.g\. --output 'results-\{name\}\.xml'\.$/,
    ],
    [
      'out',
      /^--output "out" names one file for 2 submissions: give a directory .* or a pattern, e\.g\. --output 'out\/\{name\}\.xml'\.$/,
    ],
    ['missing/', /^--output "missing\/" is a directory that does not exist: create it first \(mkdir -p missing\/\)/],
    ['nowhere/{name}.xml', /^--output ".*nowhere\/alice\.xml" is in .*nowhere, which does not exist/],
    [
      'reports/{name}/../all.xml',
      /^--output "reports\/\{name\}\/\.\.\/all\.xml" gives several submissions the same file/,
    ],
    [
      'subs/{name}/report.xml',
      /^--output would write alice's report to .*subs\/alice\/report\.xml, inside the submission .*subs\/alice: write reports outside the submissions/,
    ],
  ])('refuses %j', async (output, message) => {
    expect(await refusal(reportPaths(root, output, subs, 'junit'))).toMatch(message);
  });
});

describe('summaryPath', () => {
  it.each([
    ['summary.json', 'json'],
    ['reports/summary.CSV', 'csv'],
  ])('%j is %s', async (file, format) => {
    expect(await summaryPath(root, file)).toEqual({ file: join(root, file), format });
  });

  it.each([
    ['summary.txt', /^--summary "summary\.txt": its extension names the format, \.json or \.csv/],
    ['reports', /^--summary "reports": its extension/],
    ['missing/summary.csv', /^--summary "missing\/summary\.csv" is in .*missing, which does not exist/],
  ])('refuses %j', async (file, message) => {
    expect(await refusal(summaryPath(root, file))).toMatch(message);
  });
});

describe('classPagePath', () => {
  it('is the one file --output names', async () => {
    expect(await classPagePath(root, 'reports/class.html', subs)).toBe(join(root, 'reports', 'class.html'));
  });

  it.each<[string | undefined, RegExp]>([
    [
      undefined,
      /^--reporter html writes one page for the whole class: give --output a file name, e\.g\. --output class\.html\.$/,
    ],
    ['reports/{name}.html', /give --output a file name without \{name\}/],
    ['subs/bob/class.html', /inside the submission .*subs\/bob: write it outside the submissions/],
  ])('refuses %j, saying what to give', async (output, message) => {
    expect(await refusal(classPagePath(root, output, subs))).toMatch(message);
  });
});

describe('fileNameOf', () => {
  it.each([
    ['alice', 'alice'],
    ["o'brien", "o'brien"],
    ['çé 日本', 'çé 日本'],
    ['eve,comma', 'eve,comma'],
    ['dan "the man"', /^dan _the man_-[0-9a-f]{8}$/],
    ['frank\nnewline', /^frank_newline-[0-9a-f]{8}$/],
    ['\u202eevil', /^_evil-[0-9a-f]{8}$/],
    ['arabic\u061cmark', /^arabic_mark-[0-9a-f]{8}$/],
    ['a:b|c*d?e<f>g\\h', /^a_b_c_d_e_f_g_h-[0-9a-f]{8}$/],
  ])('keeps a name every upload takes, and makes %j one that GitHub and Windows take', (name, wanted) => {
    const file = fileNameOf(name);
    if (typeof wanted === 'string') expect(file).toBe(wanted);
    else expect(file).toMatch(wanted);
    expect(file).not.toMatch(/["\n\r:<>|*?\\\u202e]/u);
  });

  it('gives two names that differ only where a character was replaced two files', () => {
    expect(fileNameOf('a:b')).not.toBe(fileNameOf('a|b'));
    expect(fileNameOf('a:b')).not.toBe('a_b');
  });
});

describe('fileNamesOf', () => {
  it("gives a name chosen as another's file name a file of its own, and keeps every other name's", () => {
    const other = fileNameOf('rlo\u202egnp.exe');
    const files = fileNamesOf(['alice', 'rlo\u202egnp.exe', other]);
    expect(files.get('alice')).toBe('alice');
    expect(files.get('rlo\u202egnp.exe')).toBe(other);
    expect(files.get(other)).toMatch(new RegExp(`^${other}-[0-9a-f]{8}$`));
    expect(new Set(files.values()).size).toBe(3);
  });

  it('gives the same names whatever the order of the class', () => {
    const names = ['b', fileNameOf('a:b'), 'a:b', 'c'];
    expect(fileNamesOf(names)).toEqual(fileNamesOf([...names].reverse()));
  });
});
