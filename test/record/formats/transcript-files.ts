// Where the tests find transcripts: the real ones in ../shared/transcripts/ (present on developer machines and in
// CI, beside the clone, or beside the folder of worktrees a clone's worktrees share; tests that need them skip
// cleanly without), and the copies in test/fixtures/transcripts/.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ImportedCall, ImportedTranscript, ImportProblem } from '../../../src/record/types.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');

export const SHARED_TRANSCRIPTS =
  [resolve(root, '..', 'shared', 'transcripts'), resolve(root, '..', '..', 'shared', 'transcripts')].find((dir) =>
    existsSync(dir),
  ) ?? resolve(root, '..', 'shared', 'transcripts');
export const hasSharedTranscripts = existsSync(SHARED_TRANSCRIPTS);
export const shared = (path: string): string => resolve(SHARED_TRANSCRIPTS, path);
// Why a test that reads them is skipped where they are absent (a copy of the package alone, a CI job without them).
export const NO_SHARED_TRANSCRIPTS = `needs the real transcripts in ${SHARED_TRANSCRIPTS} (../shared/transcripts/), absent here`;
// Skips the test, with that reason, where they are absent: `beforeEach(needsSharedTranscripts)`, or first in a test.
export function needsSharedTranscripts(context: { skip: (condition: boolean, note?: string) => void }): void {
  context.skip(!hasSharedTranscripts, NO_SHARED_TRANSCRIPTS);
}
export const fixture = (path: string): string => resolve(root, 'test', 'fixtures', 'transcripts', path);

// The transcript, or a failed expectation that shows the problem.
export function imported(result: ImportedTranscript | ImportProblem): ImportedTranscript {
  if (!('calls' in result)) throw new Error(`expected a transcript, got a problem: ${JSON.stringify(result)}`);
  return result;
}

// How many calls each tool name has.
export function countByName(calls: ImportedCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
  return counts;
}

export function callById(transcript: ImportedTranscript, id: string): ImportedCall {
  const call = transcript.calls.find((c) => c.id === id);
  if (call === undefined) throw new Error(`no call ${id} in ${transcript.files[0]}`);
  return call;
}
