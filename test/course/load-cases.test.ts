// Case loading: every file validated against cases/case.schema.json, a bad one reported by file and field.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../src/errors.ts';
import { loadCases, parseCase, readCaseSchema, SCHEMA_OPTIONS } from '../../src/course/load-cases.ts';
import { packageRoot } from '../../src/course/stages.ts';

const schema = await readCaseSchema(packageRoot());
// Compiled as loadCases compiles it.
const validate = new Ajv(SCHEMA_OPTIONS).compile(schema);
const call = { tool: 'Read', input: { path: 'a.txt' } };
const errorsOf = (data: unknown): string[] => {
  const parsed = parseCase(typeof data === 'string' ? data : JSON.stringify(data), validate);
  return parsed.ok ? [] : parsed.errors;
};

describe('cases/case.schema.json', () => {
  // A run compiles the schema without checking it against the meta-schema (for speed): this is that check.
  it('is a valid JSON Schema', () => {
    const ajv = new Ajv();
    expect([ajv.validateSchema(schema), ajv.errorsText()]).toEqual([true, 'No errors']);
  });
});

describe('parseCase', () => {
  it.each([
    ['a minimal case', { description: 'd', calls: [call] }],
    [
      'files of every kind',
      {
        description: 'd',
        files: { 'a.txt': 'A', 'b.bin': { base64: 'AA==' }, l: { symlink: 'a.txt' } },
        calls: [call],
      },
    ],
    ['points and a visibility', { description: 'd', calls: [call], points: 2.5, visibility: 'after_due_date' }],
    ['no points', { description: 'd', calls: [call], points: 0, visibility: 'hidden' }],
  ])('accepts %s', (_, data) => {
    expect(errorsOf(data)).toEqual([]);
  });

  it.each([
    ['text that is not JSON', '{', ["not valid JSON at line 1, column 2 (Expected property name or '}')"]],
    [
      'a comma too many',
      '{\n  "description": "d",\n}',
      ['not valid JSON at line 3, column 1 (Expected double-quoted property name)'],
    ],
    [
      'an input that is not an object',
      { description: 'd', calls: [{ tool: 'Read', input: 5 }] },
      ['/calls/0/input must be object'],
    ],
    ['no description', { calls: [call] }, ["must have required property 'description'"]],
    ['no calls', { description: 'd', calls: [] }, ['/calls must NOT have fewer than 1 items']],
    [
      'an unknown key',
      { description: 'd', calls: [call], extra: 1 },
      ["has an unknown property 'extra' (allowed: $schema, description, files, calls, points, visibility, source)"],
    ],
    [
      'a file path with ..',
      { description: 'd', files: { '../x': 'X' }, calls: [call] },
      ["/files has a key that is not allowed: '../x' (must match ^(?!/)(?!.*(^|/)\\.\\.(/|$)).+$)"],
    ],
    [
      'base64 that is not a string',
      { description: 'd', files: { a: { base64: 5 } }, calls: [call] },
      ['/files/a/base64 must be string'],
    ],
    [
      'a file that is a number',
      { description: 'd', files: { a: 5 }, calls: [call] },
      ['/files/a must be one of: a string, { "base64": … }, { "symlink": … }'],
    ],
    ['negative points', { description: 'd', calls: [call], points: -1 }, ['/points must be >= 0']],
    ['points as text', { description: 'd', calls: [call], points: '2' }, ['/points must be number']],
    [
      'an unknown visibility',
      { description: 'd', calls: [call], visibility: 'secret' },
      ['/visibility must be one of: "visible", "hidden", "after_due_date", "after_published"'],
    ],
  ])('reports %s by field', (_, data, errors) => {
    expect(errorsOf(data)).toEqual(errors);
  });
});

describe('loadCases', () => {
  let root: string;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'theinference-load-cases-'));
    await mkdir(join(root, 'cases', 'demo'), { recursive: true });
    await cp(join(packageRoot(), 'cases', 'case.schema.json'), join(root, 'cases', 'case.schema.json'));
    await writeFile(join(root, 'cases', 'demo', 'b.json'), JSON.stringify({ description: 'B', calls: [call] }));
    await writeFile(join(root, 'cases', 'demo', 'a.json'), JSON.stringify({ description: 'A', calls: [call] }));
  });

  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('loads every case of the stage, sorted by name, with its file', async () => {
    const cases = await loadCases(root, 'demo');
    expect(cases.map((c) => [c.stage, c.name, c.file, c.data.description])).toEqual([
      ['demo', 'a', join(root, 'cases', 'demo', 'a.json'), 'A'],
      ['demo', 'b', join(root, 'cases', 'demo', 'b.json'), 'B'],
    ]);
  });

  it('fails with a HarnessError naming each bad file and field, and where the format is described', async () => {
    await writeFile(
      join(root, 'cases', 'demo', 'x.json'),
      JSON.stringify({ description: 'X', calls: [{ tool: 'Read', input: 5 }] }),
    );
    await writeFile(join(root, 'cases', 'demo', 'y.json'), '{ "description": ');
    const error = await loadCases(root, 'demo').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('BAD_CASE');
    expect((error as HarnessError).message.split('\n')).toEqual([
      'cases/demo/x.json: /calls/0/input must be object',
      'cases/demo/y.json: not valid JSON at line 1, column 18 (Unexpected end of JSON input)',
      'Fix the case file: its format is cases/case.schema.json.',
    ]);
  });

  it('validates against the schema as it is at each load: a schema changed since the last load is compiled again', async () => {
    await loadCases(root, 'demo');
    const schemaFile = join(root, 'cases', 'case.schema.json');
    const schema = JSON.parse(await readFile(schemaFile, 'utf8')) as { properties: Record<string, unknown> };
    schema.properties.description = { type: 'string', maxLength: 0 };
    await writeFile(schemaFile, JSON.stringify(schema));
    const error = await loadCases(root, 'demo').catch((e: unknown) => e);
    expect((error as HarnessError).message.split('\n').slice(0, 2)).toEqual([
      'cases/demo/a.json: /description must NOT have more than 0 characters',
      'cases/demo/b.json: /description must NOT have more than 0 characters',
    ]);
  });

  it('loads every case of this package', async () => {
    const cases = await loadCases(packageRoot(), 'register-tools');
    expect(cases.length).toBeGreaterThan(0);
  });
});
