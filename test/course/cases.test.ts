// Every stage's case suite and its snapshots: schema-valid, paired one to one, written deterministically, and a
// snapshot the shape of its case, as its mode's judge says (one result per call; one per turn and the conversation).
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { formatSnapshot, parseSnapshot } from '../../src/course/snapshot-file.ts';
import { STAGES } from '../../src/course/stages.ts';
import type { Case, CaseData } from '../../src/course/types.ts';
import { judgeOf } from '../../src/grade/judge/mode-judges.ts';
import { schemaOf } from '../../src/modes/mode-table.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
// Fewer than this many cases would leave a stage's contract untested.
const MIN_CASES = 15;

const slugsIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

describe.each(STAGES.map((s) => [s.slug, s] as const))('stage %s', (slug, stage) => {
  const casesDir = `${root}cases/${slug}/`;
  const snapshotsDir = `${root}snapshots/${slug}/`;
  const caseSlugs = slugsIn(casesDir);
  const snapshotSlugs = slugsIn(snapshotsDir);
  const ajv = new Ajv({ allErrors: true, strict: true });
  const schema = schemaOf(stage.mode);
  const validate = ajv.compile(readJson(`${root}cases/${schema}`) as object);

  it(`holds at least ${MIN_CASES} cases`, () => {
    expect(caseSlugs.length).toBeGreaterThanOrEqual(MIN_CASES);
  });

  it.each(caseSlugs)('%s is named in kebab case', (name) => {
    expect(name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(caseSlugs)(`%s validates against cases/${schema}`, (name) => {
    const valid = validate(readJson(`${casesDir}${name}.json`));
    expect(valid ? [] : ajv.errorsText(validate.errors).split(', ')).toEqual([]);
  });

  it.each(caseSlugs)('%s names its schema first and is two-space JSON with a trailing newline', (name) => {
    const text = readFileSync(`${casesDir}${name}.json`, 'utf8');
    const data = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(data)[0]).toBe('$schema');
    expect(data.$schema).toBe(`../${schema}`);
    expect(text).toBe(`${JSON.stringify(data, null, 2)}\n`);
  });

  it('has a snapshot for every case', () => {
    const missing = caseSlugs.filter((name) => !snapshotSlugs.includes(name));
    expect(missing, `make them with \`theinference snapshot --stage ${slug}\``).toEqual([]);
  });

  // A pending file is a change nobody has reviewed yet: `theinference snapshot --review` decides it.
  it('has no pending snapshot left', () => {
    const pending = readdirSync(snapshotsDir).filter((f) => f.endsWith('.json.new'));
    expect(pending, `review them with \`theinference snapshot --stage ${slug} --review\``).toEqual([]);
  });

  // What each recorded case's agent was answered, so that a change of the reference is re-verified against it (the
  // dispatcher's recorded cases: a loop case's turns and outputs are its recording).
  const recorded = stage.mode === 'dispatch' ? caseSlugs.filter((name) => name.startsWith('recorded-')) : [];
  it.skipIf(recorded.length === 0).each(recorded)('%s has its recording, a call per call', (slug) => {
    const recording = readJson(`${root}recordings/${stage.slug}/${slug}.json`) as { calls: unknown[] };
    const testCase = readJson(`${casesDir}${slug}.json`) as { calls: unknown[] };
    expect(recording.calls.length).toBe(testCase.calls.length);
  });

  it('has a case for every snapshot', () => {
    const orphans = snapshotSlugs.filter((name) => !caseSlugs.includes(name));
    expect(orphans, `delete them, or run \`theinference snapshot --stage ${slug}\``).toEqual([]);
  });

  // formatSnapshot is what `theinference snapshot` writes, so a file it would rewrite fails here.
  it.each(snapshotSlugs)('%s snapshot is in the deterministic format (sorted keys, two spaces, newline)', (name) => {
    const text = readFileSync(`${snapshotsDir}${name}.json`, 'utf8');
    const snapshot = parseSnapshot(text);
    if (typeof snapshot === 'string') expect.fail(`snapshots/${slug}/${name}.json: ${snapshot}`);
    expect(text).toBe(formatSnapshot(snapshot));
  });

  it.each(snapshotSlugs.filter((name) => caseSlugs.includes(name)))("%s snapshot has its case's shape", (name) => {
    const snapshot = readJson(`${snapshotsDir}${name}.json`) as { results?: unknown };
    const file = `${casesDir}${name}.json`;
    const testCase: Case = { stage: slug, name, file, data: readJson(file) as CaseData };
    expect(Object.keys(snapshot)).toEqual(['results']);
    expect(Array.isArray(snapshot.results)).toBe(true);
    expect(judgeOf(testCase).unsnapshottable(testCase, snapshot.results as unknown[])).toBeUndefined();
  });
});
