// The register-tools case suite and its snapshots: schema-valid, paired one to one, written deterministically.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { formatSnapshot, parseSnapshot } from '../../src/course/snapshot-file.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const casesDir = `${root}cases/register-tools/`;
const snapshotsDir = `${root}snapshots/register-tools/`;
const MIN_CASES = 60;

const slugsIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();

const caseSlugs = slugsIn(casesDir);
const snapshotSlugs = slugsIn(snapshotsDir);
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

const ajv = new Ajv({ allErrors: true, strict: true });
const validate = ajv.compile(readJson(`${root}cases/case.schema.json`) as object);

describe('cases/register-tools', () => {
  it(`holds at least ${MIN_CASES} cases`, () => {
    expect(caseSlugs.length).toBeGreaterThanOrEqual(MIN_CASES);
  });

  it.each(caseSlugs)('%s is named in kebab case', (slug) => {
    expect(slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(caseSlugs)('%s validates against cases/case.schema.json', (slug) => {
    const valid = validate(readJson(`${casesDir}${slug}.json`));
    expect(valid ? [] : ajv.errorsText(validate.errors).split(', ')).toEqual([]);
  });

  it.each(caseSlugs)('%s names its schema first and is two-space JSON with a trailing newline', (slug) => {
    const text = readFileSync(`${casesDir}${slug}.json`, 'utf8');
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(data)[0]).toBe('$schema');
    expect(data.$schema).toBe('../case.schema.json');
    expect(text).toBe(`${JSON.stringify(data, null, 2)}\n`);
  });
});

describe('snapshots/register-tools', () => {
  it('has a snapshot for every case', () => {
    const missing = caseSlugs.filter((slug) => !snapshotSlugs.includes(slug));
    expect(missing, 'make them with `theinference snapshot --stage register-tools`').toEqual([]);
  });

  // A pending file is a change nobody has reviewed yet: `theinference snapshot --review` decides it.
  it('has no pending snapshot left', () => {
    const pending = readdirSync(snapshotsDir).filter((f) => f.endsWith('.json.new'));
    expect(pending, 'review them with `theinference snapshot --stage register-tools --review`').toEqual([]);
  });

  // What each recorded case's agent was answered, so that a change of the reference is re-verified against it.
  it.each(caseSlugs.filter((slug) => slug.startsWith('recorded-')))('%s has its recording, a call per call', (slug) => {
    const recording = readJson(`${root}recordings/register-tools/${slug}.json`) as { calls: unknown[] };
    const testCase = readJson(`${casesDir}${slug}.json`) as { calls: unknown[] };
    expect(recording.calls.length).toBe(testCase.calls.length);
  });

  it('has a case for every snapshot', () => {
    const orphans = snapshotSlugs.filter((slug) => !caseSlugs.includes(slug));
    expect(orphans, 'delete them, or run `theinference snapshot --stage register-tools`').toEqual([]);
  });

  // formatSnapshot is what `theinference snapshot` writes, so a file it would rewrite fails here.
  it.each(snapshotSlugs)('%s is in the deterministic format (sorted keys, two spaces, trailing newline)', (slug) => {
    const text = readFileSync(`${snapshotsDir}${slug}.json`, 'utf8');
    const snapshot = parseSnapshot(text);
    if (typeof snapshot === 'string') expect.fail(`snapshots/register-tools/${slug}.json: ${snapshot}`);
    expect(text).toBe(formatSnapshot(snapshot));
  });

  it.each(snapshotSlugs.filter((slug) => caseSlugs.includes(slug)))('%s has one result per call', (slug) => {
    const snapshot = readJson(`${snapshotsDir}${slug}.json`) as { results?: unknown };
    const testCase = readJson(`${casesDir}${slug}.json`) as { calls: unknown[] };
    expect(Object.keys(snapshot)).toEqual(['results']);
    expect(Array.isArray(snapshot.results) ? snapshot.results.length : snapshot.results).toBe(testCase.calls.length);
  });
});
