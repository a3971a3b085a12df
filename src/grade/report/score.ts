// A run's score: the points of its passing cases out of the points of all of them (a case's `points`, 1 when its
// file sets none: src/course/case-weight.ts). The one sum every reporter shows.
import { weightOf } from '../../course/case-weight.ts';
import type { RunReport } from '../types.ts';

// `weighted`: some case is worth other than the default, so the score says more than the counts.
type Score = { score: number; maxScore: number; weighted: boolean };

export function scoreOf(report: RunReport): Score {
  let score = 0;
  let maxScore = 0;
  let weighted = false;
  for (const c of report.cases) {
    const { points } = weightOf(c);
    maxScore += points;
    if (c.status === 'pass') score += points;
    if (c.points !== undefined) weighted = true;
  }
  // Points may be fractions (0.5): summed in floating point, shown to a hundredth.
  return { score: round(score), maxScore: round(maxScore), weighted };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
