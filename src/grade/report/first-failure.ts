// The first failure of a run on a terminal, told as soon as its case is judged, above the live count: the student
// reads what broke while the other cases still run. The report at the run's end tells every failure again, with
// what only the whole run shows (the probe's findings, failures that share a cause told once).
import type { CaseResult } from '../types.ts';
import { painter } from './paint.ts';
import { ERASE_LINE } from './pretty.ts';
import { renderFailure } from './render-failure.ts';

export function renderFirstFailure(result: CaseResult, options: { color: boolean }): string {
  const c = painter(options.color);
  const heading = c.dim('first failure, as it came (the full report follows once every case has run):');
  return `${ERASE_LINE}${heading}\n${renderFailure(result, options)}\n\n`;
}

// Tells the first failure of a run once, whichever way it comes first: as it came (RunOptions.onFailureSeen, before
// the leaked-state rule re-runs it alone) or settled (onCaseResult). True when this call told it.
export function firstFailureTeller(tell: (result: CaseResult) => void): (result: CaseResult) => boolean {
  let told = false;
  return (result) => {
    if (told || result.status !== 'fail') return false;
    told = true;
    tell(result);
    return true;
  };
}
