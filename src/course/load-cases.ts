// Reads a stage's case files and validates each against the stage's schema (cases/case.schema.json for
// register-tools). A bad file is the course author's mistake, so it is a HarnessError naming the file and the field, never a crash mid-run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { HarnessError } from '../errors.ts';
import { DEFAULT_MODE, schemaOf } from '../modes/mode-table.ts';
import type { Case, CaseData } from './types.ts';
import { caseFileNames, casesDir, modeOf } from './stages.ts';

// At most this many schema errors are listed per file; the first few are enough to fix it.
const MAX_ERRORS_PER_FILE = 5;

// Every case of a stage, sorted by name. Fails with one HarnessError listing every bad file.
export async function loadCases(root: string, stage: string): Promise<Case[]> {
  const fileNames = await caseFileNames(root, stage);
  const files = fileNames.map((fileName) => join(casesDir(root, stage), fileName));
  const [validate, texts] = await Promise.all([
    compileSchema(root, stage),
    Promise.all(files.map((file) => readFile(file, 'utf8'))),
  ]);
  const cases: Case[] = [];
  const problems: string[] = [];
  for (const [i, fileName] of fileNames.entries()) {
    const file = files[i] as string;
    const shown = `cases/${stage}/${fileName}`;
    const checked = parseCase(texts[i] as string, validate);
    if (checked.ok) cases.push({ stage, name: fileName.slice(0, -'.json'.length), file, data: checked.data });
    else problems.push(...checked.errors.map((e) => `${shown}: ${e}`));
  }
  if (problems.length > 0) {
    const how = `Fix the case file: its format is cases/${schemaFile(stage)}.`;
    throw new HarnessError('BAD_CASE', `${problems.join('\n')}\n${how}`);
  }
  return cases;
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

// Compiled once per schema text in a process (watch mode validates the cases on every save), and compiled for
// speed: checking the schema itself against JSON Schema's meta-schema would compile the meta-schema too (two
// thirds of the time), and that check belongs to the schema's own test (test/course/load-cases.test.ts); ajv's
// code optimisation pass costs more than it saves on 112 small files.
async function compileSchema(root: string, stage: string): Promise<Validate> {
  const text = await readFile(join(root, 'cases', schemaFile(stage)), 'utf8');
  let validate = COMPILED.get(text);
  if (validate === undefined) {
    validate = new Ajv(SCHEMA_OPTIONS).compile(JSON.parse(text) as object);
    COMPILED.set(text, validate);
  }
  return validate;
}
const COMPILED = new Map<string, Validate>();

// How the case schema is compiled; `verbose` puts the failing schema in each error, which describeErrors reads.
export const SCHEMA_OPTIONS = {
  allErrors: true,
  verbose: true,
  validateSchema: false,
  code: { optimize: false },
} as const;

// The stage's case schema (cases/case.schema.json when no stage is named), parsed.
export async function readCaseSchema(root: string, stage?: string): Promise<object> {
  return JSON.parse(await readFile(join(root, 'cases', schemaFile(stage)), 'utf8')) as object;
}

// The file under cases/ holding a stage's schema: its mode's (the default mode's for a stage the course does not list).
export function schemaFile(stage: string | undefined): string {
  return schemaOf(stage === undefined ? DEFAULT_MODE : modeOf(stage));
}

// Parses and validates one case file's text: the case, or readable errors (`/calls/0/input must be object`).
export function parseCase(
  text: string,
  validate: Validate,
): { ok: true; data: CaseData } | { ok: false; errors: string[] } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`not valid JSON ${whereInText(text, (error as Error).message)}`] };
  }
  if (validate(data)) return { ok: true, data: data as CaseData };
  return { ok: false, errors: describeErrors(validate.errors ?? []).slice(0, MAX_ERRORS_PER_FILE) };
}

// Where JSON.parse stopped, as an editor shows it (`at line 3, column 7 (…)`): it gives a character position, or
// none when the text ended early (then the end of the text is where).
function whereInText(text: string, message: string): string {
  const position = /at position (\d+)/.exec(message);
  const at = position === null ? text.length : Number(position[1]);
  const before = text.slice(0, at).split('\n');
  const why = message.replace(/ in JSON at position \d+.*$/s, '').replace(/\r?\n/g, ' ');
  return `at line ${before.length}, column ${(before.at(-1)?.length ?? 0) + 1} (${why})`;
}

// Ajv reports every failed branch of a `oneOf`; a reader wants one line per wrong value. Errors inside a
// failed oneOf are folded into that oneOf: the branch that got deepest into the value speaks for it.
function describeErrors(errors: ErrorObject[]): string[] {
  const oneOfs = errors.filter((e) => e.keyword === 'oneOf');
  const inside = (e: ErrorObject, o: ErrorObject): boolean =>
    e.schemaPath.startsWith(`${o.schemaPath}/`) &&
    (e.instancePath === o.instancePath || e.instancePath.startsWith(`${o.instancePath}/`));
  const lines: string[] = [];
  for (const error of errors) {
    if (oneOfs.some((o) => inside(error, o))) continue;
    if (error.keyword === 'pattern' && error.schemaPath.includes('/propertyNames/')) continue;
    lines.push(
      error.keyword === 'oneOf'
        ? describeOneOf(
            error,
            errors.filter((e) => inside(e, error)),
          )
        : describe(error),
    );
  }
  return [...new Set(lines)];
}

function describe(error: ErrorObject): string {
  const at = error.instancePath === '' ? '' : `${error.instancePath} `;
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
    const list = allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : '';
    return `${at}has an unknown property '${String(params.additionalProperty)}'${list}`;
  }
  if (error.keyword === 'propertyNames') {
    const pattern = (error.schema as { pattern?: string } | undefined)?.pattern;
    const rule = pattern === undefined ? '' : ` (must match ${pattern})`;
    return `${at}has a key that is not allowed: '${String(params.propertyName)}'${rule}`;
  }
  if (error.keyword === 'enum') {
    const allowed = (params.allowedValues as unknown[] | undefined) ?? [];
    return `${at}must be one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${at}${error.message ?? 'is invalid'}`;
}

function describeOneOf(error: ErrorObject, branchErrors: ErrorObject[]): string {
  const depth = (e: ErrorObject): number => e.instancePath.split('/').length;
  const deepest = branchErrors.reduce<ErrorObject | undefined>(
    (best, e) => (best === undefined || depth(e) > depth(best) ? e : best),
    undefined,
  );
  if (deepest !== undefined && depth(deepest) > depth(error)) return describe(deepest);
  const branches = (error.schema as unknown[] | undefined) ?? [];
  return `${error.instancePath} must be one of: ${branches.map(describeBranch).join(', ')}`;
}

function describeBranch(schema: unknown): string {
  const s = schema as { type?: string; required?: string[] };
  if (s.type === 'object' && s.required !== undefined && s.required.length > 0) {
    return `{ ${s.required.map((k) => `"${k}": …`).join(', ')} }`;
  }
  return s.type === undefined ? 'another form' : `a ${s.type}`;
}
