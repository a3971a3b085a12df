// What a recorded case's agent was answered, kept beside the course's cases so that the case can be re-verified
// against the recording without its transcript: `recordings/<stage>/<case>.json`, written by `theinference record`
// with the case. Kept out of the case file on purpose: the program under test is given the case file, and a
// recording is as good as the answers (docs/snapshots.md, "Recorded cases and drift").
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readText } from './snapshot-file.ts';

// One call of the case, in order: its tool_use id, the rule its replay is judged by (src/record/record-types.ts's
// CheckSpec, as data), and the result the agent's own tool gave it (redacted as the case is).
export type RecordedCall = {
  id: string;
  check: { kind: string } & Record<string, unknown>;
  recorded: { content: string; is_error: boolean; details?: unknown };
};

export type Recording = { calls: RecordedCall[] };

// `recordings/<stage>/<name>.json` under a course directory.
export function recordingPath(root: string, stage: string, name: string): string {
  return join(root, 'recordings', stage, `${name}.json`);
}

// The names of a stage's recordings, sorted.
export async function recordingNames(root: string, stage: string): Promise<string[]> {
  const entries = await readdir(join(root, 'recordings', stage), { withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json') && !e.name.startsWith('.'))
    .map((e) => e.name.slice(0, -'.json'.length))
    .sort();
}

// The exact bytes of a recording file: two-space JSON in the order given, a final newline.
export function formatRecording(recording: Recording): string {
  return `${JSON.stringify(recording, null, 2)}\n`;
}

// A case's recording; null when it has none (a case written by hand, or recorded before recordings were kept);
// why not, when its file is not one.
export async function readRecording(root: string, stage: string, name: string): Promise<Recording | null | string> {
  const text = await readText(recordingPath(root, stage, name));
  if (text === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `recordings/${stage}/${name}.json is not valid JSON (${(error as Error).message}): record the case again`;
  }
  const calls = (data as { calls?: unknown } | null)?.calls;
  if (!Array.isArray(calls)) return `recordings/${stage}/${name}.json has no "calls" array: record the case again`;
  return data as Recording;
}
