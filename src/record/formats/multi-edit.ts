// Claude Code's MultiEdit `{file_path, edits: [{old_string, new_string, replace_all?}]}` as the sequence of Edits it
// applies, one after another, to one file: each a call of its own (id `<id>#N`), with the file as the edit before
// it left it as its original where the recording shows the file (`toolUseResult.originalFile`), so each can be
// checked as an Edit is. A MultiEdit that failed applied none of its edits (it is all or none): it stays one call.
import type { ImportedCall } from '../types.ts';
import { isObject } from './json-values.ts';

// The calls a recorded call stands for: itself, or a successful MultiEdit's Edits.
export function expandMultiEdit(call: ImportedCall): ImportedCall[] {
  const edits = call.input?.edits;
  if (call.name !== 'MultiEdit' || !Array.isArray(edits) || edits.length === 0 || !edits.every(isObject)) return [call];
  if (call.result === undefined || call.result.isError || call.notRun !== undefined) return [call];
  const details = isObject(call.result.details) ? call.result.details : {};
  let file = typeof details.originalFile === 'string' ? details.originalFile : undefined;
  return edits.map((edit, i) => {
    const oldString = typeof edit.old_string === 'string' ? edit.old_string : '';
    const newString = typeof edit.new_string === 'string' ? edit.new_string : '';
    const original = file;
    if (file !== undefined)
      file =
        edit.replace_all === true ? file.split(oldString).join(newString) : file.replace(oldString, () => newString);
    const { edits: _, ...rest } = call.input ?? {};
    return {
      ...call,
      id: `${call.id}#${i + 1}`,
      name: 'Edit',
      input: { ...rest, ...edit },
      result: {
        ...call.result,
        details: {
          filePath: details.filePath,
          oldString,
          newString,
          ...(original !== undefined ? { originalFile: original } : {}),
        },
      },
    } as ImportedCall;
  });
}
