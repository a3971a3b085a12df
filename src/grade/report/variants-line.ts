// What a report says of the run's variants, in one line every format shares: the seed that repeats them, how many
// cases were also checked on renamed files, and how many had no variant.
// What they rename is the words of the stage's mode (its judge's: a loop's variants rename the conversation).
import { judgeOf } from '../judge/mode-judges.ts';
import type { VariantSummary } from '../types.ts';

export function variantsLine(v: VariantSummary, stage?: string): string {
  const none = v.none.length === 0 ? '' : `; ${v.none.length} had none`;
  const what = judgeOf({ stage: stage ?? '' }).variant?.renamed ?? 'as variants';
  return `variants: seed ${v.seed}, ${v.judged} case${v.judged === 1 ? '' : 's'} also checked ${what}${none} (--seed ${v.seed} repeats them)`;
}

// The seed alone, for a summary of several runs that shared it.
export function variantsSeedLine(seed: number): string {
  return `variants: seed ${seed} (--seed ${seed} repeats them)`;
}
