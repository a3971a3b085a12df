// A variant's verdict, and a case's verdict with its variant's. A variant is judged like its case, against the
// reference's results for it instead of a snapshot; its failure says it is a variant, with the seed. A case passes
// only when it and its variant both pass; when it fails as written, that failure is the one shown.
import type { Case } from '../../course/types.ts';
import { judgeCase } from '../judge/judge-case.ts';
import { judgeOf } from '../judge/mode-judges.ts';
import type { CaseRun } from '../run/run-batches.ts';
import type { ReferenceResult } from '../run-reference.ts';
import type { CaseResult } from '../types.ts';

// What a variant failure says: where its results come from, in the words of the case's mode (its judge's).
export function variantHint(seed: number, stage?: string): string {
  const words = judgeOf({ stage: stage ?? '' }).variant;
  return (
    words?.hint(seed) ??
    `the case passes as written but not its variant (seed ${seed}). \`--seed ${seed}\` gives the same variant again`
  );
}

// The verdict of case `c`'s variant run, or undefined when the reference gave no result for it (the variant is then
// not judged: never a failure the reference itself could not avoid).
export function judgeVariant(
  c: Case,
  expected: ReferenceResult | undefined,
  run: CaseRun,
  seed: number,
): CaseResult | undefined {
  if (expected === undefined || !expected.ok) return undefined;
  const verdict = judgeCase(c, { results: expected.results }, { ...run, name: c.name });
  const failure = verdict.failure;
  if (failure === undefined) return verdict;
  return {
    ...verdict,
    failure: {
      ...failure,
      message: `variant (seed ${seed}): ${failure.message}`,
      variant: { seed },
      // The case itself passed, so no wiring mistake the hints know explains this: where the results come from does.
      hint: variantHint(seed, c.stage),
      hintCause: 'variant',
    },
  };
}

// A case's verdict from its own and its variant's (absent when it has none, or none was judged).
export function withVariant(own: CaseResult, variant: CaseResult | undefined): CaseResult {
  if (own.status === 'fail' || variant === undefined || variant.status === 'pass') return own;
  return { ...variant, description: own.description, durationMs: own.durationMs };
}

// Verdicts as they stream, each case's held until its variant's is in (or known never to come), then passed to
// `done` combined. `hasVariant` says which cases wait for one.
type VerdictPairs = {
  // A verdict: a case's own (named for it) or its variant's (named as the pool runs it: variant-plan.ts).
  add: (result: CaseResult, variantOf: string | undefined) => void;
  // The case's variant will give no verdict (the reference gave it no results): it is judged on its own.
  without: (name: string) => void;
  // Passes on every case still held (its variant never ran: a --bail, an abort) as it is.
  flush: () => void;
  // How many cases had their variant judged.
  judged: () => number;
};

export function pairVerdicts(hasVariant: (name: string) => boolean, done: (result: CaseResult) => void): VerdictPairs {
  const own = new Map<string, CaseResult>();
  const variants = new Map<string, CaseResult | null>();
  let judged = 0;
  const settle = (name: string): void => {
    const mine = own.get(name);
    const theirs = variants.get(name);
    if (mine === undefined || theirs === undefined) return;
    own.delete(name);
    variants.delete(name);
    if (theirs !== null) judged += 1;
    done(withVariant(mine, theirs ?? undefined));
  };
  return {
    add: (result, variantOf) => {
      if (variantOf === undefined) {
        if (!hasVariant(result.name)) return done(result);
        own.set(result.name, result);
        settle(result.name);
      } else {
        variants.set(variantOf, { ...result, name: variantOf });
        settle(variantOf);
      }
    },
    without: (name) => {
      variants.set(name, null);
      settle(name);
    },
    flush: () => {
      for (const [name, result] of own) {
        own.delete(name);
        done(result);
      }
    },
    judged: () => judged,
  };
}
