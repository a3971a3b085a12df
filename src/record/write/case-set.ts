// The set of cases one name stands for: `<name>.json`, or `<name>-01.json`, `<name>-02.json`… when a recording
// made several. Re-recording a transcript under its name replaces its set as a whole: a case of the set that the
// new run does not make again is stale (the same calls would be graded twice, as the old `-03` and the new `-02`).
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { casesDir, snapshotsDir } from '../../course/stages.ts';
import type { DispatchCaseData } from '../../modes/dispatch/case.ts';

// Whether a case name belongs to the set of `name`.
export function inSet(caseName: string, name: string): boolean {
  return caseName === name || (caseName.startsWith(`${name}-`) && /^\d{2,}$/.test(caseName.slice(name.length + 1)));
}

// The cases of the set of `name` that the course directory holds (a case file or a snapshot), by case name.
export async function casesOfSet(dir: string, stage: string, name: string): Promise<string[]> {
  const listed = await Promise.all(
    [casesDir(dir, stage), snapshotsDir(dir, stage)].map((d) => readdir(d).catch(() => [] as string[])),
  );
  const names = listed
    .flat()
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
  return [...new Set(names.filter((n) => inSet(n, name)))].sort();
}

// The recorded cases (those with a `source`) the course directory holds for a stage, except those of `sets` (the
// names this run records under, which it replaces): what a new case may repeat.
export async function recordedBefore(
  dir: string,
  stage: string,
  sets: string[],
): Promise<{ name: string; data: DispatchCaseData }[]> {
  const files = await readdir(casesDir(dir, stage)).catch(() => [] as string[]);
  const out: { name: string; data: DispatchCaseData }[] = [];
  for (const file of files.filter((f) => f.endsWith('.json')).sort()) {
    const name = file.slice(0, -'.json'.length);
    if (sets.some((set) => inSet(name, set))) continue;
    try {
      const data = JSON.parse(await readFile(join(casesDir(dir, stage), file), 'utf8')) as DispatchCaseData;
      if (data.source !== undefined && Array.isArray(data.calls)) out.push({ name, data });
    } catch {
      // Not a case file the recorder wrote: nothing to repeat.
    }
  }
  return out;
}
