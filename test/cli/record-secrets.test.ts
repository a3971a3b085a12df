// `theinference record` on a transcript seeded with every secret shape of the scanner's test data
// (test/fixtures/secret-shapes/), each as written, percent-encoded, JSON-escaped and glued to a word: none of them
// reaches any file it writes (the case, its snapshot and its recording, made of a Read of a file holding them all)
// or its report (test/record/map/secret-rules.test.ts holds the redactor and the privacy gate to every shape and
// encoding).
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHAPES } from '../fixtures/secret-shapes/shapes.ts';
import { REPO } from '../support/reference-course.ts';

const BIN = join(REPO, 'bin', 'theinference.js');
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'theinference-secrets-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const percent = (s: string): string =>
  [...Buffer.from(s)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const escaped = (s: string): string =>
  [...s].map((c) => (/[a-z]/.test(c) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');

// A Claude Code session: a prompt, then one Read of a file that holds every secret in every encoding.
function transcript(lines: string[]): string {
  const content = `${lines.join('\n')}\n`;
  // As Claude Code's Read shows a file that ends in a newline: its lines numbered (`     N→line`), then an empty one.
  const numbered = [...lines, ''].map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
  const base = {
    isSidechain: false,
    userType: 'external',
    sessionId: 's1',
    version: '2.1.150',
    cwd: '/home/alice/shop',
  };
  const file = '/home/alice/shop/notes.txt';
  return [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      parentUuid: null,
      message: { role: 'user', content: `Read notes.txt ${lines[0]}` },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'u2',
      parentUuid: 'u1',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: file } }],
      },
    },
    {
      ...base,
      type: 'user',
      uuid: 'u3',
      parentUuid: 'u2',
      message: { role: 'user', content: [{ tool_use_id: 'toolu_1', type: 'tool_result', content: numbered }] },
      toolUseResult: {
        type: 'text',
        file: { filePath: file, content, numLines: lines.length + 1, startLine: 1, totalLines: lines.length + 1 },
      },
    },
  ]
    .map((e) => JSON.stringify(e))
    .join('\n');
}

async function filesUnder(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('record keeps every secret out of what it writes', () => {
  it('writes no seeded secret, in any encoding, in any file or the report', async () => {
    expect(SHAPES.length).toBeGreaterThanOrEqual(30);
    const lines = SHAPES.flatMap((s) => [
      `A=${s.text}`,
      `B=key%3D${percent(s.text)}`,
      `C=${escaped(s.text)}`,
      `D=KEY${s.text}`,
    ]);
    const course = join(root, 'course');
    await mkdir(course);
    // The workspace as the session found it: the file the Read shows, secrets and all.
    await mkdir(join(root, 'shop'));
    await writeFile(join(root, 'shop', 'notes.txt'), `${lines.join('\n')}\n`);
    await writeFile(join(root, 'session.jsonl'), transcript(lines));
    const args = [
      'record',
      join(root, 'session.jsonl'),
      '--stage',
      'register-tools',
      '--dir',
      course,
      '--files-from',
      join(root, 'shop'),
    ];
    const { exitCode, stdout, stderr } = await execa('node', [BIN, ...args], {
      cwd: root,
      env: { NO_COLOR: '1', TMPDIR: root },
      reject: false,
    });
    // The Read replays (its seed, the file, redacted as its recorded result is): a case, its snapshot and its
    // recording are written, each of them holding the file's lines, and none may carry a seeded secret.
    expect(exitCode, `${stdout}${stderr}`).toBe(0);
    expect(stdout).toMatch(/redacted .*secret \(gitlab\)/);
    expect((await filesUnder(course)).map((f) => f.slice(course.length + 1)).sort()).toEqual([
      'cases/register-tools/recorded-session.json',
      'recordings/register-tools/recorded-session.json',
      'snapshots/register-tools/recorded-session.json',
    ]);
    const recorded = await readFile(join(course, 'cases', 'register-tools', 'recorded-session.json'), 'utf8');
    expect(recorded).toContain('<redacted:');
    const written = await filesUnder(course);
    const texts = [stdout, stderr, ...(await Promise.all(written.map((f) => readFile(f, 'utf8'))))];
    for (const shape of SHAPES) {
      const spellings = [shape.secret, percent(shape.secret), escaped(shape.secret)];
      for (const text of texts) for (const s of spellings) expect(text.includes(s), `${shape.name}: ${s}`).toBe(false);
    }
  }, 180_000);
});
