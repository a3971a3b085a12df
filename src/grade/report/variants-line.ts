// What a report says of the run's variants, in one line every format shares: the seed that repeats them, how many
// cases were also checked on renamed files, and how many had no variant.
// A loop stage's variants rename the conversation, not files (src/modes/loop/variants/make-loop-variant.ts).
import { stageOf } from '../../course/stages.ts';
import type { VariantSummary } from '../types.ts';

export function variantsLine(v: VariantSummary, stage?: string): string {
  const none = v.none.length === 0 ? '' : `; ${v.none.length} had none`;
  const what =
    stageOf(stage ?? '')?.mode === 'loop'
      ? "with the model's words, outputs and tool_use ids renamed"
      : 'on renamed files';
  return `variants: seed ${v.seed}, ${v.judged} case${v.judged === 1 ? '' : 's'} also checked ${what}${none} (--seed ${v.seed} repeats them)`;
}

// The seed alone, for a summary of several runs that shared it.
export function variantsSeedLine(seed: number): string {
  return `variants: seed ${seed} (--seed ${seed} repeats them)`;
}
