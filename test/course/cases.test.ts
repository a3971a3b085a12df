// The register-tools case suite and its snapshots: schema-valid, paired one to one, written deterministically.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

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

// The snapshot format: object keys sorted recursively, two-space JSON, one trailing newline.
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

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
    expect(text).toBe(JSON.stringify(data, null, 2) + '\n');
  });
});

describe('snapshots/register-tools', () => {
  it('has a snapshot for every case (make one with `theinference snapshot`)', () => {
    expect(caseSlugs.filter((slug) => !snapshotSlugs.includes(slug))).toEqual([]);
  });

  it('has a case for every snapshot (delete snapshots whose case is gone)', () => {
    expect(snapshotSlugs.filter((slug) => !caseSlugs.includes(slug))).toEqual([]);
  });

  it.each(snapshotSlugs)('%s is in the deterministic format (sorted keys, two spaces, trailing newline)', (slug) => {
    const text = readFileSync(`${snapshotsDir}${slug}.json`, 'utf8');
    expect(text).toBe(JSON.stringify(sortKeys(JSON.parse(text)), null, 2) + '\n');
  });

  it.each(snapshotSlugs.filter((slug) => caseSlugs.includes(slug)))('%s has one result per call', (slug) => {
    const snapshot = readJson(`${snapshotsDir}${slug}.json`) as { results?: unknown };
    const testCase = readJson(`${casesDir}${slug}.json`) as { calls: unknown[] };
    expect(Object.keys(snapshot)).toEqual(['results']);
    expect(Array.isArray(snapshot.results) ? snapshot.results.length : snapshot.results).toBe(testCase.calls.length);
  });
});
