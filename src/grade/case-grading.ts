// What a case is worth and who sees it, for gradebooks (the Gradescope reporter): a case file's optional `points`
// (a number of 0 or more, default 1) and `visibility` (`visible`, the default; `hidden`; `after_due_date`; or
// `after_published`), read from the case data when present, the default otherwise.

// Who may see a case's result and output: Gradescope's test visibilities.
export const VISIBILITIES = ['visible', 'hidden', 'after_due_date', 'after_published'] as const;
export type Visibility = (typeof VISIBILITIES)[number];

// A case's points and visibility, as a case file sets them.
export type CaseGrading = { points: number; visibility: Visibility };

export const DEFAULT_GRADING: CaseGrading = { points: 1, visibility: 'visible' };

// The grading a case's data asks for; a value of the wrong shape counts as not given (the case schema is where a
// course author is told).
export function caseGrading(data: unknown): CaseGrading {
  const { points, visibility } = (data ?? {}) as { points?: unknown; visibility?: unknown };
  return {
    points: typeof points === 'number' && Number.isFinite(points) && points >= 0 ? points : DEFAULT_GRADING.points,
    visibility: (VISIBILITIES as readonly unknown[]).includes(visibility)
      ? (visibility as Visibility)
      : DEFAULT_GRADING.visibility,
  };
}
