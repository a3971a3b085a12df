// A recorded tool call in the course's vocabulary: Claude Code's tools (`Read {file_path, offset, limit}`, `Write`,
// `Edit`, `Glob`, `Grep`, `Bash`, 1.0's `LS`), Anthropic's text-editor tool (`str_replace_based_edit_tool {command, …}`), the
// lesson's own agent (`read_file`, `write_file`, `edit_file`, `bash`), Codex's shell tools (map-codex.ts), Gemini
// CLI's tools (map-gemini.ts), pi's (map-pi.ts, by the transcript's format) and the course's names as they are. The
// original name and keys are kept for the case's `source`. Tools the course lacks, and inputs it cannot express,
// are dropped with a reason the report counts.
import type { Call } from '../../course/types.ts';
import type { ImportedCall } from '../types.ts';
import type { CheckSpec, MappedCall } from '../record-types.ts';
import { asRecord, defaultPath, keep, rename, type Dropped, type MapContext, type Mapping } from './call-input.ts';
import { mapCodexShell } from './map-codex.ts';
import { mapGeminiCall } from './map-gemini.ts';
import { mapPiCall } from './map-pi.ts';
import { mapGrep } from './map-grep.ts';
import { LS_TRUNCATED } from './ls-tree.ts';
import { viewRangeFor } from './read-range.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';
import { harnessPath, insideSandbox, outsidePaths } from './sandbox-paths.ts';
import { readShownFile } from './view-text.ts';

// Claude Code (2.1) saves a result too large for the conversation to a file and hands the model only its start:
// `<persisted-output>\nOutput too large (40.1KB). Full output saved to: …\n\nPreview (first 2KB):\n…`. The
// transcript holds just that preview, so no replay can be compared with what the tool gave.
const PERSISTED_OUTPUT = /^\s*<persisted-output>/;
export const PERSISTED_DROP = 'result too large for the transcript: the agent kept only a preview (<persisted-output>)';

// The course call for a recorded one, or why there is none.
export function mapCall(imported: ImportedCall, context: MapContext): MappedCall | Dropped {
  // Reasons are counted, so their details (a hook's message, a parse error) stay out of them.
  if (imported.notRun !== undefined) return { drop: `never ran: ${imported.notRun.split(':')[0] ?? ''}` };
  if (imported.input === undefined) return { drop: 'malformed input' };
  if (imported.result === undefined) return { drop: 'no recorded result' };
  if (PERSISTED_OUTPUT.test(imported.result.content)) return { drop: PERSISTED_DROP };
  const harness = Object.values(imported.input).some((v) => typeof v === 'string' && harnessPath(v) !== undefined);
  if (harness) return { drop: "uses the agent's own files (~/.claude, /tmp/claude-*)" };
  const mapped = mapByName(imported, imported.input, context);
  if ('drop' in mapped) return mapped;
  const outside = outsideReason(mapped.call, context);
  if (outside !== undefined) return { drop: outside };
  return {
    id: imported.id,
    call: mapped.call,
    originalTool: imported.name,
    renamedKeys: mapped.renamedKeys,
    droppedKeys: mapped.droppedKeys,
    check: mapped.check,
    ...(imported.timestamp === undefined ? {} : { timestamp: imported.timestamp }),
  };
}

function mapByName(imported: ImportedCall, input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  if (context.pi === true) return mapPiCall(imported, input, context);
  const name = imported.name;
  const claudeCode = 'file_path' in input;
  switch (name) {
    case 'Read':
      return claudeCode ? mapRead(imported, input) : keep(name, input, { kind: 'view' });
    case 'Write':
      return claudeCode
        ? rename('Write', input, { file_path: 'path', content: 'file_text' }, { kind: 'write' })
        : keep(name, input, { kind: 'write' });
    case 'Edit':
      return claudeCode ? mapEdit(imported, input) : keep(name, input, { kind: 'edit' });
    case 'Glob':
    case 'glob':
      return mapGlob(imported, input, context);
    case 'Grep':
    case 'grep':
      return mapGrep(imported, input, context);
    case 'Bash':
    case 'bash':
      return mapBash(name, input, context);
    case 'shell':
    case 'shell_command':
    case 'exec_command':
    case 'local_shell':
    case 'exec':
      return mapCodexShell(imported, input, context);
    case 'LS':
      return mapLs(imported, input, context);
    case 'view':
      return keep(name, input, { kind: 'view' });
    case 'create':
      return keep(name, input, { kind: 'write' });
    case 'str_replace':
      return keep(name, input, { kind: 'edit' });
    case 'insert':
      return keep(name, input, { kind: 'insert' });
    case 'str_replace_based_edit_tool':
    case 'str_replace_editor':
      return mapTextEditor(name, input);
    case 'read_file':
      return 'path' in input ? mapReadFile(imported, input) : mapGeminiCall(imported, input, context);
    case 'write_file':
      return rename('Write', input, { path: 'path', file_path: 'path', content: 'file_text' }, { kind: 'write' });
    case 'replace':
    case 'run_shell_command':
    case 'search_file_content':
    case 'grep_search':
    case 'list_directory':
      return mapGeminiCall(imported, input, context);
    case 'edit_file':
      return rename('Edit', input, { path: 'path', old_text: 'old_str', new_text: 'new_str' }, { kind: 'edit' });
    default:
      return { drop: `not in the course's toolset: ${name}` };
  }
}

function mapRead(imported: ImportedCall, input: Record<string, unknown>): Mapping | Dropped {
  const file = fileDetails(imported.result?.details);
  if (file?.type !== undefined && file.type !== 'text') return { drop: `Read of a non-text file (${file.type})` };
  const shown = readShownFile(imported.result?.content ?? '');
  const lastLine = shown.lines.at(-1)?.n;
  const range = viewRangeFor(input.offset, input.limit, {
    ...(lastLine === undefined ? {} : { lastLine }),
    ...(file?.totalLines === undefined ? {} : { totalLines: file.totalLines }),
  });
  const mapping = rename('Read', input, { file_path: 'path' }, { kind: 'view' });
  // offset and limit become view_range; their values stay in the source as sent.
  for (const key of ['offset', 'limit']) if (key in mapping.droppedKeys) mapping.renamedKeys[key] = 'view_range';
  if (range !== undefined) mapping.call.input.view_range = range;
  return mapping;
}

function mapEdit(imported: ImportedCall, input: Record<string, unknown>): Mapping | Dropped {
  const details = asRecord(imported.result?.details);
  const original = typeof details?.originalFile === 'string' ? details.originalFile : undefined;
  const oldStr = typeof input.old_string === 'string' ? input.old_string : undefined;
  const newStr = typeof input.new_string === 'string' ? input.new_string : '';
  const matches =
    original !== undefined && oldStr !== undefined && oldStr !== '' ? original.split(oldStr).length - 1 : undefined;
  if (input.replace_all === true && matches !== 0 && matches !== 1) {
    return {
      drop: matches === undefined ? 'Edit replace_all, match count unknown' : 'Edit replace_all with several matches',
    };
  }
  const mapping = rename(
    'Edit',
    input,
    { file_path: 'path', old_string: 'old_str', new_string: 'new_str' },
    { kind: 'edit' },
  );
  // What the file holds afterwards, when the recording shows it and the user did not change the edit first.
  const expectedAfter =
    matches === 1 &&
    details?.userModified !== true &&
    imported.result?.isError !== true &&
    original !== undefined &&
    oldStr !== undefined
      ? original.replace(oldStr, () => newStr)
      : undefined;
  if (expectedAfter !== undefined) mapping.check = { kind: 'edit', expectedAfter };
  return mapping;
}

function mapGlob(imported: ImportedCall, input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  const details = asRecord(imported.result?.details);
  if (details?.truncated === true || /\(Results are truncated/.test(imported.result?.content ?? '')) {
    return { drop: 'Glob result truncated by the agent' };
  }
  // Gemini CLI's glob names its directory `dir_path` (`path` before 0.5).
  const keys = { pattern: 'pattern', path: 'path', dir_path: 'path' };
  const mapping = rename(imported.name, input, keys, { kind: 'glob', base: '' });
  const path = defaultPath(mapping.call.input, context);
  mapping.check = { kind: 'glob', base: path };
  return mapping;
}

// Claude Code 1.0's LS {path, ignore?} lists a directory, every level down; the course's view of it shows two
// levels, which the replay compares (ls-tree.ts). LS's ignore patterns hide entries, and the replay hides the same.
function mapLs(imported: ImportedCall, input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  if (LS_TRUNCATED.test(imported.result?.content ?? '')) return { drop: 'LS result truncated by the agent' };
  const ignore = input.ignore ?? [];
  if (!Array.isArray(ignore) || !ignore.every((p) => typeof p === 'string')) return { drop: 'malformed input' };
  const mapping = rename('view', input, { path: 'path' }, { kind: 'directory', base: '' });
  const base = defaultPath(mapping.call.input, context);
  if (mapping.call.input.path === undefined) mapping.call.input.path = SANDBOX;
  mapping.check = { kind: 'directory', base, ...(ignore.length > 0 ? { ignore: ignore as string[] } : {}) };
  return mapping;
}

function mapBash(name: string, input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  if (input.run_in_background === true) return { drop: 'Bash in the background' };
  if (context.subdir === undefined) return { drop: "Bash after a cd out of the session's directory" };
  const mapping = rename(name, input, { command: 'command', timeout: 'timeout' }, { kind: 'bash' });
  const command = mapping.call.input.command;
  // Claude Code's shell keeps its directory between calls; the course's starts in the sandbox every time.
  if (typeof command === 'string' && context.subdir !== '')
    mapping.call.input.command = `cd ${SANDBOX}/${context.subdir} && ${command}`;
  return mapping;
}

function mapTextEditor(name: string, input: Record<string, unknown>): Mapping | Dropped {
  const command = input.command;
  const checks: Record<string, CheckSpec> = {
    view: { kind: 'view' },
    create: { kind: 'write' },
    str_replace: { kind: 'edit' },
    insert: { kind: 'insert' },
  };
  if (typeof command !== 'string' || !Object.hasOwn(checks, command)) {
    return { drop: `not in the course's toolset: ${name} ${String(command)}` };
  }
  const { command: _, ...rest } = input;
  const mapping = keep(command, rest, checks[command] as CheckSpec);
  mapping.droppedKeys = { command };
  return mapping;
}

function mapReadFile(imported: ImportedCall, input: Record<string, unknown>): Mapping {
  const mapping = rename('Read', input, { path: 'path' }, { kind: 'view' });
  // The lesson's read_file shows the first `limit` lines and says how many more there are.
  const more = /\.\.\. \((\d+) more lines?\)\s*$/.exec(imported.result?.content ?? '');
  if (typeof input.limit === 'number' && more !== null) {
    mapping.renamedKeys.limit = 'view_range';
    mapping.call.input.view_range = [1, input.limit];
  }
  return mapping;
}

// Why a mapped call cannot run in a sandbox: a path input outside it, or a command naming the machine's paths.
function outsideReason(call: Call, context: MapContext): string | undefined {
  const path = call.input.path;
  if (typeof path === 'string' && !insideSandbox(path)) return "path outside the session's directory";
  if (context.subdir === undefined && typeof path === 'string' && !path.startsWith(SANDBOX)) {
    return "relative path after a cd out of the session's directory";
  }
  const command = call.input.command;
  if (typeof command === 'string' && outsidePaths(command).length > 0)
    return "Bash names a path outside the session's directory";
  return undefined;
}

// Claude Code's `toolUseResult.file` for a Read, when kept.
function fileDetails(details: unknown): { type?: string; totalLines?: number } | undefined {
  const d = asRecord(details);
  const file = asRecord(d?.file);
  if (d === undefined || file === undefined) return undefined;
  return {
    ...(typeof d.type === 'string' ? { type: d.type } : {}),
    ...(typeof file.totalLines === 'number' ? { totalLines: file.totalLines } : {}),
  };
}
