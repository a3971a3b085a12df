// Recorded loops as agent-loop cases: each loop of a session a case file (request, turns, outputs, and where it
// came from), private data redacted from every string, named `recorded-<transcript>` (`-01`, `-02`… for several).
import type { LoopCaseData } from '../case.ts';
import { schemaOf } from '../../mode-table.ts';
import { makeRedactor, type RedactionSources } from '../../../record/map/redact.ts';
import { recordedName } from '../../../record/write/describe-case.ts';
import { parallelTurns, toolUses, type LoopSession, type RecordedLoop } from './recorded-loop.ts';

const FORMAT_NAMES: Record<LoopSession['format'], string> = {
  'claude-code': 'Claude Code session',
  live: 'live recording',
  anthropic: 'Messages API log',
};

// A loop ready to be written: its name, its case, what the redactor removed from it.
export type LoopCaseDraft = {
  name: string;
  data: LoopCaseData;
  redacted: Record<string, number>;
  differs: number[];
  // The turns (0-based) whose recorded stream was dropped: it held a redacted string in pieces.
  streamsDropped?: number[];
};

// The cases of a session's loops, named from `base`.
export function loopCases(
  session: LoopSession,
  o: { base: string; transcript: string; sources: RedactionSources },
): LoopCaseDraft[] {
  return session.loops.map((loop, i) => {
    const redactor = makeRedactor(o.sources);
    const name = session.loops.length > 1 ? `${o.base}-${String(i + 1).padStart(2, '0')}` : o.base;
    const data = redactStrings(caseFile(loop, session, o.transcript), redactor.text) as LoopCaseData;
    return { name, data, redacted: { ...redactor.counts }, differs: loop.differs ?? [] };
  });
}

function caseFile(loop: RecordedLoop, session: LoopSession, transcript: string): LoopCaseData {
  const calls = loop.turns.flatMap((t) => toolUses(t.message));
  const tools = [...new Set(calls.map((c) => c.name))];
  const parallel = parallelTurns(loop);
  const id = session.session === undefined ? '' : `${session.session.slice(0, 8)}; `;
  const inParallel =
    parallel === 0 ? '' : `; ${parallel} ${parallel === 1 ? 'turn calls' : 'turns call'} tools in parallel`;
  const description =
    `Replays a loop of ${loop.turns.length} turns and ${calls.length} tool calls from a real ${FORMAT_NAMES[session.format]} ` +
    `(${id}${tools.join(', ')}${inParallel}): every request carries the conversation so far, and the loop returns it whole.`;
  return {
    $schema: `../${schemaOf('loop')}`,
    description,
    request: loop.request,
    turns: loop.turns,
    outputs: loop.outputs,
    source: {
      format: session.format,
      transcript,
      ...(session.session === undefined ? {} : { session: session.session }),
      ...(loop.recorded === undefined ? {} : { recorded: loop.recorded }),
      prompt: loop.prompt,
      ...(loop.defaults.length === 0 ? {} : { defaults: loop.defaults }),
    },
  };
}

// The base name of a transcript's cases, as the recorder names register-tools ones.
export function baseName(file: string): string {
  const parts = file.split('/').filter((p) => p !== '');
  let base = (parts.at(-1) ?? 'transcript').replace(/\.[^.]*$/, '');
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(base)) base = base.slice(0, 8);
  else if (base.toLowerCase() === 'transcript') base = parts.at(-2) ?? base;
  return recordedName(base);
}

// Every string of a JSON value through `f`.
function redactStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => redactStrings(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactStrings(v, f)]));
  }
  return value;
}
