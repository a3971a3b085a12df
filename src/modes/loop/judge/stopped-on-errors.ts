// A loop that returns after a turn whose tool results are all errors, as if a failed tool ended the task. One case
// cannot prove it: a loop that returns after its first tool turn looks the same where that turn failed, and one
// capped at k turns where turn k did (session-twenty-turns' turn 10). The probe's scripts side by side can: every
// one that stopped after its tools had them all fail, and one whose tools did not all fail went on. Pure.
import type { LoopCaseData } from '../case.ts';
import { allErrors, asksForTools } from './loop-features.ts';

// The cause of the hint for a loop that returned after the tools of its first turn, whatever they gave.
export const STOPPED_AFTER_TOOLS = 'stopped after the first tool call';
// The cause of the finding that names the errors as what ended it.
export const STOPPED_ON_ERRORS = 'stopped after a turn of errors';

const RULE =
  'a failed tool is for the model to read, not the end of the loop: send the results and call the model again, whatever is_error says; only a stop_reason other than "tool_use" ends the loop';
const GENERAL = `the loop returned after a turn whose tool results all have is_error, though it goes on after turns whose results do not: ${RULE}`;

// The finding the probe proves: every script that stopped after its tools (`causes[k]`, its hint's cause) failed
// them all, and one whose tools did not all fail went on to its next request.
export function stoppedOnErrorsFinding(
  scripts: LoopCaseData[],
  requests: unknown[][],
  causes: (string | undefined)[],
): { cause: string; text: string; shows: 'all-error-turn' } | undefined {
  const stopped = scripts.flatMap((s, k) => (causes[k] === STOPPED_AFTER_TOOLS ? [s] : []));
  if (stopped.length === 0 || !stopped.every((s) => s.turns[0] !== undefined && allErrors(s.turns[0], s))) {
    return undefined;
  }
  const wentOn = scripts.some((s, k) => {
    const first = s.turns[0];
    return first !== undefined && asksForTools(first) && !allErrors(first, s) && (requests[k]?.length ?? 0) > 1;
  });
  return wentOn ? { cause: STOPPED_ON_ERRORS, text: GENERAL, shows: 'all-error-turn' } : undefined;
}
