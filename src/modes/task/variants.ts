// The task mode's variants: the loop mode's (variants/make-loop-variant.ts renames the model's words, the outputs
// and the tool_use ids, in the parent's turns and its children's alike; tool names and inputs stay, so a task
// call's prompt is the same in the variant and the child's first message follows it).
import type { TaskCaseData } from './case.ts';
import type { ModeVariants } from '../../grade/variants/plan-variants.ts';
import { makeLoopVariant } from '../loop/variants/make-loop-variant.ts';

export const variants: ModeVariants = {
  make: (c, seed) => {
    if (!Array.isArray((c.data as { turns?: unknown } | null)?.turns)) return { ok: false, why: 'it has no turns' };
    return makeLoopVariant({ name: c.name, data: c.data as TaskCaseData }, seed);
  },
};
