// A Claude Code session's calls put together from its files: the main session and its subagents/*.jsonl. The main
// file's agent_progress lines repeat subagent calls; the subagent file's copy wins (its own file and line), and a
// call found only in agent_progress is kept. Each file stays in its own order; files interleave by timestamp.
import type { ImportedCall } from '../types.ts';

// The calls of a session, the main file's first, then each subagent file's, merged in time.
export function mergeSessionCalls(main: ImportedCall[], subagents: ImportedCall[][]): ImportedCall[] {
  const inSubagents = new Map<string, ImportedCall>();
  for (const calls of subagents) for (const call of calls) inSubagents.set(call.id, call);
  const own: ImportedCall[] = [];
  for (const call of main) {
    const copy = inSubagents.get(call.id);
    if (call.agent === undefined || copy === undefined) own.push(call);
    else if (copy.result === undefined && call.result !== undefined) copy.result = call.result;
  }
  return mergeByTime([own, ...subagents]);
}

// A k-way merge: at each step the source whose next call is earliest; ties go to the earlier source. A call
// without a timestamp takes its predecessor's in the same source.
function mergeByTime(sources: ImportedCall[][]): ImportedCall[] {
  const at = sources.map(() => 0);
  const last = sources.map(() => '');
  const merged: ImportedCall[] = [];
  for (;;) {
    let pick = -1;
    let pickTime = '';
    for (const [s, calls] of sources.entries()) {
      const call = calls[at[s] ?? 0];
      if (call === undefined) continue;
      const time = call.timestamp ?? last[s] ?? '';
      if (pick === -1 || time < pickTime) {
        pick = s;
        pickTime = time;
      }
    }
    if (pick === -1) return merged;
    const call = sources[pick]?.[at[pick] ?? 0] as ImportedCall;
    merged.push(call);
    last[pick] = pickTime;
    at[pick] = (at[pick] ?? 0) + 1;
  }
}
