// What a case is worth and who may see what it expects: its file's `points` (1 when absent) and `visibility`
// (`visible` when absent). The one place these words and defaults live: the judge, every reporter and the
// Gradescope reporter read them from here.
import type { CaseData } from './types.ts';

// `visible`: everything is shown; `hidden`: the student sees the verdict and the hint, never the expected result;
// `after_due_date` and `after_published`: as hidden wherever theinference reports (it knows neither the due date
// nor when grades are published), and so marked for a platform that does (Gradescope's test visibilities).
export const VISIBILITIES = ['visible', 'hidden', 'after_due_date', 'after_published'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

const DEFAULT_POINTS = 1;
const DEFAULT_VISIBILITY: Visibility = 'visible';

// A case's weight and visibility, defaults applied. Takes a case file's data or a verdict (CaseResult), which
// carries the fields its case file set.
export function weightOf(c: Pick<CaseData, 'points' | 'visibility'>): { points: number; visibility: Visibility } {
  return { points: c.points ?? DEFAULT_POINTS, visibility: c.visibility ?? DEFAULT_VISIBILITY };
}

// Whether a case's expected result is kept from the student: from their terminal, every report and their program.
export function withholdsExpected(visibility: Visibility | undefined): boolean {
  return (visibility ?? DEFAULT_VISIBILITY) !== 'visible';
}
