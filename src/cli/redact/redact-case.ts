// One recorded case redacted after the fact, without its transcript: every string of the case file (its calls,
// seeds, description and source), of its snapshot, its pending snapshot and its recording (what the agent's tools
// answered: src/course/recording-file.ts) goes through the recorder's own
// redactor (src/record/map/redact.ts: the key shapes, e-mail addresses, the machine's home and user name as the
// recorder knows them today, and the author's --redact patterns), and the redactions are counted by kind. Pure.
import { formatSnapshot, parseSnapshot } from '../../course/snapshot-file.ts';
import type { CaseData } from '../../course/types.ts';
import { mapStrings } from '../../record/map/prepare-steps.ts';
import { makeRedactor, type RedactionSources } from '../../record/map/redact.ts';
import { privacyFindings } from '../../record/write/privacy-gate.ts';
import { formatCase } from '../../record/write/write-cases.ts';

// A recorded case's files as they are on disk (a snapshot or pending file that is not there is null).
export type CaseFiles = {
  name: string;
  data: CaseData;
  snapshot: string | null;
  pending: string | null;
  recording: string | null;
};

// The same files redacted, what was removed, and what of the machine the recorder would still find in them.
export type RedactedCase = {
  name: string;
  caseText: string;
  snapshot: string | null;
  pending: string | null;
  recording: string | null;
  // The redactions by kind (`e-mail address`, `--redact ACME-\d+`); empty when nothing matched.
  counts: Record<string, number>;
  // Whether anything was redacted, so the files are to be rewritten.
  changed: boolean;
  // The results its redacted snapshot holds, for the reference to reproduce from the redacted case.
  results: unknown[] | undefined;
  leaks: string[];
  // A loop case's turns (0-based) whose recorded stream was dropped: its redacted bytes no longer built the
  // redacted turn (src/modes/loop/record/redact-streams.ts).
  streamsDropped?: number[];
};

// Redacts one case and its snapshots.
export function redactCase(files: CaseFiles, sources: RedactionSources): RedactedCase {
  const redactor = makeRedactor(sources);
  const data = mapStrings(files.data, redactor.text) as CaseData;
  const caseText = formatCase(data);
  const redactSnapshot = (text: string | null): { text: string | null; results?: unknown[] } => {
    if (text === null) return { text };
    const parsed = parseSnapshot(text);
    // A file that is not a snapshot is redacted as text: nothing of it may keep a secret either.
    if (typeof parsed === 'string') return { text: redactor.text(text) };
    const results = mapStrings(parsed.results, redactor.text) as unknown[];
    return { text: formatSnapshot({ results }), results };
  };
  const snapshot = redactSnapshot(files.snapshot);
  const pending = redactSnapshot(files.pending);
  const recording = files.recording === null ? null : redactJson(files.recording, redactor.text);
  const texts = [caseText, snapshot.text ?? '', pending.text ?? '', recording ?? ''];
  return {
    name: files.name,
    caseText,
    snapshot: snapshot.text,
    pending: pending.text,
    recording,
    counts: { ...redactor.counts },
    // Rewritten only where something was removed: a case file is otherwise left byte for byte as it is.
    changed: Object.keys(redactor.counts).length > 0,
    results: snapshot.results,
    // The privacy gate every file the recorder writes passes (src/record/write/privacy-gate.ts).
    leaks: [...new Set(texts.flatMap((t) => privacyFindings(t, sources)))],
  };
}

// A JSON file's text with every string in it redacted, in its own layout (two-space JSON); text that is not JSON
// is redacted as text.
function redactJson(text: string, redact: (s: string) => string): string {
  try {
    return `${JSON.stringify(mapStrings(JSON.parse(text), redact), null, 2)}\n`;
  } catch {
    return redact(text);
  }
}
