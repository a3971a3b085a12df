// Where the package keeps its stages: `cases/<stage>/*.json` and `snapshots/<stage>/*.json` under the package
// root, found from this file's own location so that a student's directory needs neither.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HarnessError } from '../errors.ts';

// One stage as `theinference stages` lists it.
export type StageInfo = { slug: string; caseCount: number };

// The theinference package root (the directory holding package.json, cases/ and snapshots/).
export function packageRoot(): string {
  return fileURLToPath(new URL('../../', import.meta.url));
}

// `cases/<stage>/` under `root`.
export function casesDir(root: string, stage: string): string {
  return join(root, 'cases', stage);
}

// `snapshots/<stage>/` under `root`.
export function snapshotsDir(root: string, stage: string): string {
  return join(root, 'snapshots', stage);
}

// Every stage (a directory under cases/) with its number of case files, sorted by slug.
export async function listStages(root: string): Promise<StageInfo[]> {
  const entries = await readdir(join(root, 'cases'), { withFileTypes: true }).catch(() => []);
  const slugs = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(slugs.map(async (slug) => ({ slug, caseCount: (await caseFileNames(root, slug)).length })));
}

// The case file names (`x.json`) of a stage, sorted.
export async function caseFileNames(root: string, stage: string): Promise<string[]> {
  const entries = await readdir(casesDir(root, stage), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => e.name)
    .sort();
}

// Resolves a stage slug, or fails with a message listing the stages that exist.
export async function requireStage(root: string, slug: string): Promise<StageInfo> {
  const stages = await listStages(root);
  const stage = stages.find((s) => s.slug === slug);
  if (stage !== undefined) return stage;
  const known = stages.map((s) => s.slug).join(', ') || '(none)';
  throw new HarnessError(
    'UNKNOWN_STAGE',
    `unknown stage '${slug}'. Known stages: ${known}. Run \`npx theinference stages\` to list them with their cases.`,
  );
}
