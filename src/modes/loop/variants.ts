// The loop mode's variants (src/grade/variants/plan-variants.ts makes them): the same loop with the model's words,
// the tools' outputs and the tool_use ids renamed (variants/make-loop-variant.ts).
import type { LoopCaseData } from './case.ts';
import type { ModeVariants } from '../../grade/variants/plan-variants.ts';
import { makeLoopVariant } from './variants/make-loop-variant.ts';

export const variants: ModeVariants = {
  make: (c, seed) => {
    if (!Array.isArray((c.data as { turns?: unknown } | null)?.turns)) return { ok: false, why: 'it has no turns' };
    return makeLoopVariant({ name: c.name, data: c.data as LoopCaseData }, seed);
  },
};
