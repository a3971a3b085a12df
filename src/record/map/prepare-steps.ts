// A transcript's calls made ready for replay, one step each: every string (input, result, the evidence beside it)
// in the sandbox's terms and redacted, the call in the course's vocabulary (or why not), and what it shows about
// the workspace. Pure.
import { METHODS } from '../../course/dispatcher-contract.ts';
import type { ImportedCall, ImportedTranscript } from '../types.ts';
import type { MappedCall } from '../record-types.ts';
import { evidenceOf, type Evidence } from './evidence.ts';
import { sandboxRelative } from './call-input.ts';
import { mapCall } from './map-call.ts';
import type { Redactor } from './redact.ts';
import { sandboxer, subdirectory } from './sandbox-paths.ts';
import { isWindowsPath, posixListing, posixPaths } from '../formats/windows-paths.ts';

// One call of the transcript on its way to a case.
export type Step = {
  // Its place in the transcript's calls.
  position: number;
  imported: ImportedCall;
  mapped?: MappedCall;
  // Why it cannot be replayed at all (set by the mapping, or later by the pipeline).
  drop?: string;
  // Where the agent was, relative to the session's start ('' the same, undefined outside it).
  subdir: string | undefined;
  // The sandbox-relative file a file tool names.
  path?: string;
  evidence: Evidence;
  ran: boolean;
};

const NO_EVIDENCE: Evidence = { before: new Map(), changes: [] };

// The steps of a transcript, in the order the agent made the calls.
export function prepareSteps(transcript: ImportedTranscript, redactor: Redactor): Step[] {
  const toSandbox = sandboxer(transcript.cwd);
  const clean = (text: string): string => redactor.text(toSandbox(text));
  const windows = isWindowsPath(transcript.cwd);
  return transcript.calls.map((raw, position) => {
    const imported = windows ? posixCall(cleanCall(raw, clean)) : cleanCall(raw, clean);
    const subdir = subdirectory(raw.cwd, transcript.cwd);
    const ran = imported.notRun === undefined;
    const mapped = mapCall(imported, {
      subdir,
      claudeCode: transcript.format === 'claude-code',
      pi: transcript.format === 'pi',
    });
    const step: Step = { position, imported, subdir, ran, evidence: NO_EVIDENCE };
    if ('drop' in mapped) {
      step.drop = mapped.drop;
      // A command that did run may have changed files, whether or not it can be replayed.
      if (ran && METHODS.bash!.names.includes(raw.name) && typeof imported.input?.command === 'string') {
        step.evidence = evidenceOf(
          { tool: raw.name, input: imported.input },
          { kind: 'bash' },
          imported.result,
          subdir ?? '',
        );
      }
      return step;
    }
    step.mapped = mapped;
    const path = mapped.call.input.path;
    if (typeof path === 'string' && !['glob', 'grep', 'directory'].includes(mapped.check.kind))
      step.path = sandboxRelative(path, subdir ?? '');
    step.evidence = ran ? evidenceOf(mapped.call, mapped.check, imported.result, subdir ?? '') : NO_EVIDENCE;
    return step;
  });
}

// The call with every string it carries passed through `clean`.
function cleanCall(call: ImportedCall, clean: (text: string) => string): ImportedCall {
  const out: ImportedCall = { ...call };
  if (call.input !== undefined) out.input = mapStrings(call.input, clean) as Record<string, unknown>;
  if (call.result !== undefined) {
    out.result = { ...call.result, content: clean(call.result.content) };
    if (call.result.details !== undefined) out.result.details = mapStrings(call.result.details, clean);
  }
  return out;
}

// A Windows session's call with its path inputs and its listing's paths `/`-separated (formats/windows-paths.ts).
function posixCall(call: ImportedCall): ImportedCall {
  if (call.input === undefined) return call;
  const input = posixPaths(call.input);
  // Claude Code's Grep lists files unless asked for content; the course's grep always prints lines.
  const listing =
    call.name === 'Glob' || call.name === 'glob'
      ? 'paths'
      : call.name === 'grep' || (call.name === 'Grep' && input.output_mode === 'content')
        ? 'lines'
        : call.name === 'Grep'
          ? 'paths'
          : undefined;
  if (listing === undefined || call.result === undefined) return { ...call, input };
  return { ...call, input, result: { ...call.result, content: posixListing(call.result.content, listing) } };
}

// A copy of a JSON value with `f` applied to every string in it (keys included: a path can be a key).
export function mapStrings(value: unknown, f: (s: string) => string): unknown {
  if (typeof value === 'string') return f(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [f(k), mapStrings(v, f)]));
  }
  return value;
}
