// The mutation score of the reference, read from the JSON report Stryker writes (`npm run mutate`:
// reports/mutation/mutation.json, mutation-testing-elements' schema): per mutated file, the mutants the suite
// detected (killed, or timed out) of those it could run, and the ones that survived, each with where and what. What
// `audit` shows beside the kill matrix. Pure: the report's text in, the score out (undefined for what is not one).

// Where Stryker writes its JSON report (stryker.config.json says so too).
export const MUTATION_REPORT = 'reports/mutation/mutation.json';

export type Survivor = { file: string; line: number; mutator: string; replacement: string };
export type MutationScore = { detected: number; valid: number; survivors: Survivor[] };

// Statuses that count: detected, or run and not detected. Compile and runtime errors and ignored mutants do not.
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

export function mutationScore(text: string): MutationScore | undefined {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    return undefined;
  }
  const files = isRecord(report) && isRecord(report.files) ? report.files : undefined;
  if (files === undefined) return undefined;
  const score: MutationScore = { detected: 0, valid: 0, survivors: [] };
  for (const [file, entry] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const mutants = isRecord(entry) && Array.isArray(entry.mutants) ? entry.mutants : [];
    for (const m of mutants) {
      if (!isRecord(m) || typeof m.status !== 'string') continue;
      if (DETECTED.has(m.status)) score.detected += 1;
      if (!DETECTED.has(m.status) && !UNDETECTED.has(m.status)) continue;
      score.valid += 1;
      if (UNDETECTED.has(m.status)) {
        const line = isRecord(m.location) && isRecord(m.location.start) ? Number(m.location.start.line) : 0;
        const replacement = typeof m.replacement === 'string' ? m.replacement : '';
        score.survivors.push({ file, line, mutator: String(m.mutatorName ?? '?'), replacement });
      }
    }
  }
  return score;
}

// "Stryker: 97.1% of 70 mutants of the reference detected (68); survivors: …".
export function renderMutationScore(score: MutationScore): string[] {
  const pct = score.valid === 0 ? 100 : (100 * score.detected) / score.valid;
  const lines = [
    `Mutation score of the reference (Stryker, ${MUTATION_REPORT}): ${pct.toFixed(1)}%, ${score.detected} of ${score.valid} mutants detected`,
  ];
  for (const s of score.survivors) {
    lines.push(`  survived: ${s.file}:${s.line} ${s.mutator} → ${JSON.stringify(s.replacement.split('\n')[0] ?? '')}`);
  }
  return lines;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
