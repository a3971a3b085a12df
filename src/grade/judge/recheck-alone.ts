// The leaked-state rule. A case that failed after other cases ran in the same process may have been broken by
// them (module-level state in the student's code). The first such failure is re-run alone, in a fresh process,
// as soon as it is reported (while the batches still run). If its verdict changes, the program's cases affect
// each other: every such failure is re-run alone. A case that passed alone keeps its failure, with the hint that
// names the leak: state kept from one call to the next is a mistake the contract rules out (makeExecute and
// runLoop start afresh each time), and a passing alone verdict would grade it as right. A case that failed alone
// too reports that failure, its own. Its limit: when the sampled verdict holds, the others are trusted, and a
// case that passes only thanks to a neighbour is never re-run.
//
// One sample, whatever --jobs: a program then gets the same check in watch mode, in a one-off run and in a CI
// matrix; and on two cores every further sample cost a failing watch-mode verdict about 0.1 s (its process starts
// while the batches still need the CPU; docs/performance.md).
import { jsonEqual } from './compare-results.ts';
import type { CaseResult } from '../types.ts';

// How many suspects are re-run alone before the rule decides whether to re-run the rest.
export const SAMPLED_SUSPECTS = 1;

// How to re-run cases alone.
type Recheck = {
  // Runs the named cases each alone in a fresh process and returns their verdicts.
  runAlone: (names: string[]) => Promise<CaseResult[]>;
  // The function of the student's the stage calls (its `entry`: makeExecute, runLoop), named in the leak's hint.
  entry: string;
};

// The final verdicts of the suspect failures, and the warning to show when the program leaks state.
type RecheckOutcome = { results: CaseResult[]; warning?: string };

// A recheck fed suspects as they are found: `suspect` starts a sampled re-run at once, `finish` (once every
// suspect is in) applies the rule, and `settled` waits for every re-run started, whatever happened to it.
type EarlyRecheck = {
  suspect: (result: CaseResult) => void;
  finish: () => Promise<RecheckOutcome>;
  settled: () => Promise<void>;
};

// Starts an empty recheck.
export function startRecheck(how: Recheck): EarlyRecheck {
  const suspects: CaseResult[] = [];
  const sample = new Map<string, Promise<CaseResult[]>>();
  const started: Promise<unknown>[] = [];
  const runAlone = (names: string[]): Promise<CaseResult[]> => {
    const run = how.runAlone(names);
    started.push(run.catch(() => {})); // awaited (and its rejection handled) by finish or settled
    return run;
  };
  return {
    suspect: (result) => {
      suspects.push(result);
      if (sample.size < SAMPLED_SUSPECTS) sample.set(result.name, runAlone([result.name]));
    },
    finish: async () => {
      if (suspects.length === 0) return { results: [] };
      const alone = new Map<string, CaseResult>();
      for (const run of sample.values()) for (const r of await run) alone.set(r.name, r);
      const sorted = [...suspects].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const changed = sorted.some((s) => alone.has(s.name) && verdictChanged(s, alone.get(s.name)!));
      if (!changed) return { results: sorted.map((s) => alone.get(s.name) ?? s) };
      const rest = sorted.filter((s) => !sample.has(s.name));
      if (rest.length > 0) for (const r of await runAlone(rest.map((s) => s.name))) alone.set(r.name, r);
      const results = sorted.map((s) => settle(s, alone.get(s.name), leakHint(how.entry)));
      const leaked = results.some((r) => r.failure?.hintCause === LEAK_CAUSE);
      return leaked ? { results } : { results, warning: leakWarning(sorted, alone, how.entry) };
    },
    settled: async () => {
      await Promise.all(started);
    },
  };
}

// The hint of a case that failed after other cases and passed alone: one mistake, however many cases show it.
// The cause a leaked-state failure is filed under: explained by no finding, whatever it differs by.
export const LEAK_CAUSE = 'leaked state';

// The hint of a case that passed alone and failed after others, said of the stage's own function.
export function leakHint(entry: string): string {
  return `this case passed when run alone and failed after other cases ran in the same process: your code keeps state from one call of ${entry} to the next (a module-level variable: a cache, a counter, a list). Keep what a case needs inside ${entry}, in what it is given and what it makes, so each call starts afresh.`;
}

// A suspect's verdict once re-run alone: its batch failure under the leak's hint when it passed alone, else the
// verdict alone (the batch's when it was not re-run).
function settle(batch: CaseResult, alone: CaseResult | undefined, hint: string): CaseResult {
  if (alone === undefined) return batch;
  if (alone.status !== 'pass' || batch.failure === undefined) return alone;
  const { difference: _, ...failure } = batch.failure;
  return { ...batch, failure: { ...failure, hint, hintCause: LEAK_CAUSE } };
}

function leakWarning(sorted: CaseResult[], alone: Map<string, CaseResult>, entry: string): string {
  const differs = sorted.filter((s) => alone.has(s.name) && verdictChanged(s, alone.get(s.name)!));
  const names = differs.map((s) => s.name);
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? `, … (${names.length} in all)` : '');
  return (
    `your cases affect each other — module-level state? ${differs.length} failing case${differs.length === 1 ? '' : 's'} ` +
    `gave a different verdict when run alone (${shown}). Every failure that ran after another case was re-run ` +
    `alone and that verdict is reported. Keep the state of a case inside ${entry}, in what it is given and what it makes, not in module variables.`
  );
}

// Whether two verdicts for the same case disagree (pass vs fail, or a different failure).
export function verdictChanged(a: CaseResult, b: CaseResult): boolean {
  if (a.status !== b.status) return true;
  const fa = a.failure;
  const fb = b.failure;
  return fa?.kind !== fb?.kind || fa?.message !== fb?.message || !jsonEqual(fa?.received, fb?.received);
}
