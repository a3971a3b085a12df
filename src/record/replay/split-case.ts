// A case's size, both ways. Too big to read in a failure, it is split: its calls halved, each half replayed again
// as a case of its own from the seed its own calls need, and kept only when every result still reproduces; halves
// still too big are halved again. When a half does not reproduce on its own (it needs what the calls before it
// did), the case stays whole: splitting never loses a call. Too small, next to another of its timeline (a window
// that ended where the world seemed to change, a window's last few calls), the two are replayed as one case and
// are one when every result still reproduces and it stays under the limits: fewer, fuller cases.
import type { CaseDraft } from '../record-types.ts';

// A case's size (its seed, calls and results, as the case and snapshot files hold them) past which it is split.
export const MAX_CASE_CHARS = 64_000;

// About how many characters a case and its snapshot take.
export function caseChars(draft: CaseDraft): number {
  return (
    JSON.stringify(draft.files).length +
    JSON.stringify(draft.calls.map((c) => c.call)).length +
    JSON.stringify(draft.results).length
  );
}

// The cases for `kept` (timeline indices, in order) whose case is `draft`: itself, or its halves' cases.
// `confirmPart`: the case for some of the calls, replayed and verified, or undefined when it does not reproduce.
export async function splitOversize(
  kept: number[],
  draft: CaseDraft,
  confirmPart: (part: number[]) => Promise<CaseDraft | undefined>,
  limit = MAX_CASE_CHARS,
): Promise<CaseDraft[]> {
  const size = caseChars(draft);
  if (kept.length < 2 || size <= limit) return [draft];
  const half = Math.ceil(kept.length / 2);
  const parts = [kept.slice(0, half), kept.slice(half)];
  const drafts = await Promise.all(parts.map(confirmPart));
  const [first, second] = drafts;
  if (first === undefined || second === undefined) return [draft];
  // Halves as big as the whole (a seed file over the limit that both need) gain nothing.
  if (caseChars(first) >= size && caseChars(second) >= size) return [draft];
  return [
    ...(await splitOversize(parts[0] as number[], first, confirmPart, limit)),
    ...(await splitOversize(parts[1] as number[], second, confirmPart, limit)),
  ];
}

// A case and the timeline indices of its calls.
export type Part = { kept: number[]; draft: CaseDraft };

// Adjacent cases of one timeline made one, greedily from the first, while the calls fit `maxCalls`, the sizes fit
// `limit` and `confirmPart` reproduces every result of the two together.
export async function mergeAdjacent(
  parts: Part[],
  confirmPart: (part: number[]) => Promise<CaseDraft | undefined>,
  maxCalls: number,
  limit = MAX_CASE_CHARS,
): Promise<Part[]> {
  const [first, ...rest] = parts;
  if (first === undefined) return [];
  const out: Part[] = [];
  let current = first;
  for (const next of rest) {
    const fits =
      current.kept.length + next.kept.length <= maxCalls && caseChars(current.draft) + caseChars(next.draft) <= limit;
    const kept = [...current.kept, ...next.kept];
    const merged = fits ? await confirmPart(kept) : undefined;
    if (merged !== undefined && caseChars(merged) <= limit) current = { kept, draft: merged };
    else {
      out.push(current);
      current = next;
    }
  }
  out.push(current);
  return out;
}
