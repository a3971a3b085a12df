// One transcript's report as data: how many calls were seen, mapped, replayed and kept, why the others were
// dropped, what the importer skipped, which cases were made and from which seeds, what was redacted, and the
// fidelity of the replay (how many mapped calls reproduce the recording, with the first divergence of each kind).
// src/record/write/render-report.ts prints it.
import { basename } from 'node:path';
import type {
  CaseDraft,
  Divergence,
  DroppedCall,
  SeedOrigin,
  SkippedInput,
  TranscriptReport,
} from '../record-types.ts';
import type { Built } from '../replay/build-cases.ts';
import type { Step } from '../map/prepare-steps.ts';
import type { Redactor } from '../map/redact.ts';
import type { ImportedTranscript } from '../types.ts';

// A case of this transcript, and why it was not written when it was not.
export type ReportedCase = { name: string; draft: CaseDraft; rejected: string | undefined };

// The report for a transcript.
export function reportFor(
  w: { transcript: ImportedTranscript; steps: Step[]; built: Built; redactor: Redactor; reused?: boolean },
  o: { cases: ReportedCase[] },
): TranscriptReport {
  const dropped: Record<string, number> = {};
  const count = (reason: string, n = 1): void => void (dropped[reason] = (dropped[reason] ?? 0) + n);
  for (const reason of w.built.dropped.values()) count(reason);
  const written = o.cases.filter((c) => c.rejected === undefined);
  const rejectedOf = new Map<number, string>();
  for (const c of o.cases) {
    if (c.rejected === undefined) continue;
    // Counted by call, each in a case not written: `14  in a case not written: …`.
    const reason = `in a case not written: ${c.rejected.split('\n')[0] ?? ''}`;
    count(reason, c.draft.calls.length);
    const ids = new Set(c.draft.calls.map((m) => m.id));
    for (const step of w.steps) if (ids.has(step.imported.id)) rejectedOf.set(step.position, reason);
  }
  const droppedCalls: DroppedCall[] = [];
  for (const step of w.steps) {
    const reason = w.built.dropped.get(step.position) ?? rejectedOf.get(step.position);
    if (reason !== undefined)
      droppedCalls.push({ id: step.imported.id, tool: step.mapped?.call.tool ?? step.imported.name, reason });
  }
  const skipped = new Map<string, SkippedInput>();
  // The main file's lines go by their number alone; a subagent file's by its name too.
  const main = basename(w.transcript.files[0] ?? '');
  for (const skip of w.transcript.skipped) {
    const found = skipped.get(skip.reason);
    if (found !== undefined) found.count += 1;
    else {
      const file = basename(skip.file) === main ? undefined : basename(skip.file);
      const first =
        skip.line === 0 ? (file ?? basename(skip.file)) : `${file === undefined ? '' : `${file} `}line ${skip.line}`;
      skipped.set(skip.reason, { reason: skip.reason, count: 1, wholeFiles: skip.line === 0, first });
    }
  }
  const seeds: Partial<Record<SeedOrigin, number>> = {};
  for (const c of written)
    for (const origin of Object.values(c.draft.origins)) seeds[origin] = (seeds[origin] ?? 0) + 1;
  const notReproduced = [...w.built.replayed].filter(
    (p) => w.built.dropped.get(p)?.startsWith('did not reproduce') === true,
  ).length;
  const all: Divergence[] = [...w.built.divergences]
    .sort(([a], [b]) => a - b)
    .flatMap(([position, verdict]) => {
      const step = w.steps[position];
      if (verdict.ok || step === undefined) return [];
      return [
        {
          id: step.imported.id,
          tool: step.mapped?.call.tool ?? step.imported.name,
          reason: verdict.reason,
          recorded: verdict.recorded,
          replayed: verdict.replayed,
        },
      ];
    });
  const firsts = all.filter((d, i) => all.findIndex((e) => e.reason === d.reason) === i);
  // The first of each kind (a Bash exit code, a Grep's file set…) before the others, so that a session of a hundred
  // failing `mix test` still shows first where its Grep differed.
  const divergences = [...firsts, ...all.filter((d) => !firsts.includes(d))];
  return {
    transcript: w.transcript.files[0] ?? '',
    format: w.transcript.format,
    ...(w.transcript.sessionId === undefined ? {} : { sessionId: w.transcript.sessionId }),
    seen: w.transcript.calls.length,
    mapped: w.steps.filter((s) => s.mapped !== undefined).length,
    replayed: w.built.replayed.size,
    kept: written.reduce((n, c) => n + c.draft.calls.length, 0),
    dropped,
    subagentFiles: Math.max(0, w.transcript.files.length - 1),
    skipped: [...skipped.values()].sort((a, b) => b.count - a.count),
    cases: written.map((c) => c.name),
    seeds,
    redactions: { ...w.redactor.counts },
    reproduced: w.built.replayed.size - notReproduced,
    divergences,
    droppedCalls,
    ...(w.reused === true ? { reused: true as const } : {}),
  };
}
