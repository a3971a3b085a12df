// A case's recording: for each of its calls, the rule its replay was judged by and what the agent's own tool
// answered, redacted as the case is. Written beside the case (src/course/recording-file.ts) so that the case can
// be re-verified against the recording when the reference changes, without the transcript.
import type { Recording } from '../../course/recording-file.ts';
import type { Step } from '../map/prepare-steps.ts';
import type { CaseDraft } from '../record-types.ts';

export function recordingOf(draft: CaseDraft, steps: Step[]): Recording {
  const byId = new Map(steps.map((s) => [s.imported.id, s]));
  return {
    calls: draft.calls.map((m) => {
      const result = byId.get(m.id)?.imported.result;
      return {
        id: m.id,
        check: m.check,
        recorded: {
          content: result?.content ?? '',
          is_error: result?.isError === true,
          ...(result?.details === undefined ? {} : { details: result.details }),
        },
      };
    }),
  };
}
