// Gemini CLI's tools in the course's vocabulary: `read_file {absolute_path | file_path, offset?, limit?}` (a range
// as the lines Gemini says it showed),
// `write_file {file_path, content}` (map-call.ts), `replace {file_path, old_string, new_string,
// expected_replacements?}`, `run_shell_command {command, directory?, is_background?}` and `glob` (map-call.ts).
// Its search (`search_file_content`, `grep_search` in newer versions) is the course's grep, `list_directory` a view.
import type { ImportedCall } from '../types.ts';
import { asRecord, defaultPath, rename, type Dropped, type MapContext, type Mapping } from './call-input.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// The mapping of a Gemini CLI call, or why there is none.
export function mapGeminiCall(
  imported: ImportedCall,
  input: Record<string, unknown>,
  context: MapContext,
): Mapping | Dropped {
  switch (imported.name) {
    case 'read_file':
      return mapGeminiRead(imported, input);
    case 'replace':
      if (typeof input.expected_replacements === 'number' && input.expected_replacements !== 1)
        return { drop: 'replace of several occurrences' };
      return rename(
        'Edit',
        input,
        { file_path: 'path', old_string: 'old_str', new_string: 'new_str' },
        { kind: 'edit' },
      );
    case 'run_shell_command':
      return mapShell(input, context);
    case 'search_file_content':
    case 'grep_search':
      return mapSearch(imported, input, context);
    case 'list_directory':
      return mapListDirectory(input, context);
    default:
      return { drop: `not in the course's toolset: ${imported.name}` };
  }
}

// A read of a range (`offset` from 0 and `limit`; `start_line`, `end_line` in newer versions) is the view_range of
// the lines Gemini says it showed (formats/gemini.ts); when they were the whole file it says nothing, and the
// read is a whole one. Gemini counts a last, empty line after a final newline, as Claude Code does: a range that
// reaches it reaches the end.
function mapGeminiRead(imported: ImportedCall, input: Record<string, unknown>): Mapping {
  const mapping = rename('Read', input, { absolute_path: 'path', file_path: 'path' }, { kind: 'view' });
  const file = asRecord(asRecord(imported.result?.details)?.file);
  for (const key of RANGE_KEYS) if (key in mapping.droppedKeys) mapping.renamedKeys[key] = 'view_range';
  const { startLine: start, numLines: count, totalLines: total } = file ?? {};
  if (typeof start !== 'number' || typeof count !== 'number' || typeof total !== 'number') return mapping;
  const end = start + count - 1;
  mapping.call.input.view_range = [start, end >= total ? -1 : end];
  return mapping;
}

const RANGE_KEYS = ['offset', 'limit', 'start_line', 'end_line'];

// Gemini's search `{pattern, path | dir_path?, include?}` is the course's grep `{pattern, path, glob}`, judged by
// the set of lines it found (listed-paths.ts reads its groups), paths relative to the directory searched. Gemini
// matches without regard to case: where that found a line the course's grep does not, the lines differ and the call
// is dropped, so only searches whose case did not matter are kept.
function mapSearch(imported: ImportedCall, input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  if (/results? (?:limited|truncated)/i.test(imported.result?.content ?? ''))
    return { drop: `${imported.name} result cut by the agent` };
  const keys = { pattern: 'pattern', path: 'path', dir_path: 'path', include: 'glob' };
  const mapping = rename('grep', input, keys, { kind: 'grep', mode: 'lines', base: '' });
  const base = defaultPath(mapping.call.input, context);
  mapping.check = { kind: 'grep', mode: 'lines', base };
  return mapping;
}

// Gemini's list_directory `{dir_path | path, ignore?}` lists one level: the course's view of the directory, judged by
// its first level (gemini-listing.ts). What Gemini's ignore files hid is not in the recording, so the seed lacks it
// too; what its `ignore` patterns hid is left out of the comparison, as for Claude Code's LS.
function mapListDirectory(input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  const ignore = input.ignore ?? [];
  if (!Array.isArray(ignore) || !ignore.every((p) => typeof p === 'string')) return { drop: 'malformed input' };
  const mapping = rename('view', input, { dir_path: 'path', path: 'path' }, { kind: 'view' });
  const base = defaultPath(mapping.call.input, context);
  if (mapping.call.input.path === undefined) mapping.call.input.path = SANDBOX;
  const ignored = ignore.length > 0 ? { ignore: ignore as string[] } : {};
  mapping.check = { kind: 'directory', base, from: 'list_directory', ...ignored };
  return mapping;
}

function mapShell(input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  if (input.is_background === true) return { drop: 'Bash in the background' };
  if (context.subdir === undefined) return { drop: "Bash after a cd out of the session's directory" };
  const mapping = rename('Bash', input, { command: 'command' }, { kind: 'bash' });
  // Relative to the session's directory, or (as paths are mapped first) `<sandbox>/…`.
  const raw = typeof input.directory === 'string' ? input.directory : '';
  const directory = raw.startsWith(SANDBOX) ? raw.slice(SANDBOX.length) : raw;
  const relative = directory.replace(/^\/|^\.$|^\.\/|\/$/g, '');
  if ((directory.startsWith('/') && !raw.startsWith(SANDBOX)) || relative.split('/').includes('..'))
    return { drop: "Bash after a cd out of the session's directory" };
  const subdir = [context.subdir, relative].filter((d) => d !== '').join('/');
  if (subdir !== '' && typeof mapping.call.input.command === 'string')
    mapping.call.input.command = `cd ${SANDBOX}/${subdir} && ${mapping.call.input.command}`;
  return mapping;
}
