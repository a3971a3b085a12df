// Gemini CLI's tools in the course's vocabulary: `read_file {absolute_path | file_path}` (a whole read; Gemini's
// `offset` counts from 0 and its result then starts with a note of its own, so a range is not kept),
// `write_file {file_path, content}` (map-call.ts), `replace {file_path, old_string, new_string,
// expected_replacements?}`, `run_shell_command {command, directory?, is_background?}` and `glob` (map-call.ts).
// Its search tool prints matches grouped per file (`File: a.ts` / `L12: text`), which no rule compares yet.
import type { ImportedCall } from '../types.ts';
import { rename, type Dropped, type MapContext, type Mapping } from './call-input.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// The mapping of a Gemini CLI call, or why there is none.
export function mapGeminiCall(
  imported: ImportedCall,
  input: Record<string, unknown>,
  context: MapContext,
): Mapping | Dropped {
  switch (imported.name) {
    case 'read_file':
      if (input.offset !== undefined || input.limit !== undefined) return { drop: 'read_file of a line range' };
      return rename('Read', input, { absolute_path: 'path', file_path: 'path' }, { kind: 'view' });
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
    default:
      return { drop: `${imported.name}: Gemini's grouped search output is not compared with the course's grep` };
  }
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
