// `--reporter html` end to end: the real binary writes one page for a class (and its summary, which names the same
// mistakes by the same ids and holds to its published schema), one page for one course directory, and refuses a
// per-submission pattern for the class page. The page itself is tested in a browser in
// test/grade/report/html-browser.test.ts; here, that the CLI writes it and that a submission's name is text in it.
import { cp, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO } from '../grade/course-fixture.ts';
import { useBinary } from '../support/binary.ts';
import { writeReferenceCourse } from '../support/reference-course.ts';

const { scratch, theinference } = useBinary();
const CASES = ['--case', 'course-*', '--case', 'story-*'];
// A directory name a student could choose, which is markup.
const HOSTILE = '<img src=x onerror="alert(1)">eve';

let root = '';
beforeAll(async () => {
  root = join(scratch.root, 'class');
  const sub = (name: string) => join(root, 'subs', name);
  for (const name of ['alice', 'bob', HOSTILE]) await writeReferenceCourse(sub(name));
  await cp(join(REPO, 'test/fixtures/wrong-execute/missing-alias-read.ts'), join(sub('bob'), 'src/execute.ts'));
  await mkdir(join(root, 'reports'));
});

const grade = (args: string[]) => theinference(['test', '--stage', 'register-tools', ...CASES, ...args], root);

describe('--reporter html', () => {
  it('writes one page for a class, and a summary whose mistake ids are the page’s', async () => {
    const { exitCode, stdout } = await grade([
      '--dir',
      'subs/*',
      '--reporter',
      'html',
      '--output',
      'class.html',
      '--summary',
      'summary.json',
    ]);
    expect(exitCode).toBe(1);
    expect(stdout).toMatch(/^Report: class\.html$/m);
    const page = await readFile(join(root, 'class.html'), 'utf8');
    expect(page).toMatch(/^<!doctype html>\n/);
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;/);
    const summary = JSON.parse(await readFile(join(root, 'summary.json'), 'utf8'));
    const schema = JSON.parse(await readFile(join(REPO, 'schemas/summary.schema.json'), 'utf8'));
    const validate = new Ajv({ strict: true }).compile(schema);
    expect(validate(summary), JSON.stringify(validate.errors)).toBe(true);
    const bob = summary.submissions.find((s: { name: string }) => s.name === 'bob');
    expect(bob.mistakes).toHaveLength(1);
    expect(summary.mistakes).toEqual([{ id: bob.mistakes[0], hint: expect.stringMatching(/`Read`/), submissions: 1 }]);
    expect(page).toContain(`<tr id="${bob.mistakes[0]}"`);
    // The name is on the page as text, never as an element.
    expect(page).not.toContain('<img');
    expect(page).toContain('<a href="#s-1">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;eve</a>');
  });

  it('refuses a pattern for the class page, saying what to give', async () => {
    const { exitCode, stderr } = await grade([
      '--dir',
      'subs/*',
      '--reporter',
      'html',
      '--output',
      'reports/{name}.html',
    ]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(
      '--reporter html writes one page for the whole class: give --output a file name without {name}, e.g. --output class.html.',
    );
  });

  it('writes the page of one course directory', async () => {
    const { exitCode } = await grade(['--dir', 'subs/bob', '--reporter', 'html', '--output', 'bob.html']);
    expect(exitCode).toBe(1);
    const page = await readFile(join(root, 'bob.html'), 'utf8');
    expect(page).toMatch(/<h1>Report: register-tools<\/h1>/);
    expect(page).toMatch(/<span class="mistake-id">m-[0-9a-f]{8}<\/span>/);
  });
});
