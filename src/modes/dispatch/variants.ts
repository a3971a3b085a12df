// The dispatch mode's variants (src/grade/variants/plan-variants.ts makes them): the same calls on files and
// contents renamed, a letter permutation of the case's seed (variants/make-variant.ts).
import type { DispatchCaseData } from './case.ts';
import type { ModeVariants } from '../../grade/variants/plan-variants.ts';
import { makeVariant } from './variants/make-variant.ts';

export const variants: ModeVariants = {
  make: (c, seed) => {
    if (!Array.isArray((c.data as { calls?: unknown } | null)?.calls)) {
      return { ok: false, why: "its stage's cases have no calls to rename" };
    }
    return makeVariant({ name: c.name, data: c.data as DispatchCaseData }, seed);
  },
};
