// pi's tools (badlogic/pi-mono's coding agent) in the course's vocabulary, the one table of them for every pi
// transcript: `read {path, offset?, limit?}` (offset counted from 1) is Read, its range the lines pi said it showed
// (formats/pi-session.ts takes pi's `[Showing lines …]` note out of the result); `bash {command, timeout?}` is Bash,
// pi's timeout in seconds made the course's milliseconds; `edit {path, oldText, newText}` is Edit, `write {path,
// content}` Write. pi's `grep`, `find` and `ls` word their output their own way, which no replay rule compares yet.
// The names are lower case like the lesson's own agent's (`bash`), so they are told by the transcript's format,
// not by name.
import type { ImportedCall } from '../types.ts';
import { asRecord, rename, type Dropped, type MapContext, type Mapping } from './call-input.ts';
import { SANDBOX } from '../../course/sandbox-placeholder.ts';

// pi's tools the course has no replay rule for (their results are pi's own listings).
const UNCOMPARED = new Set(['grep', 'find', 'ls']);

// The mapping of a pi call, or why there is none.
export function mapPiCall(
  imported: ImportedCall,
  input: Record<string, unknown>,
  context: MapContext,
): Mapping | Dropped {
  switch (imported.name) {
    case 'read':
      return mapPiRead(imported, input);
    case 'bash':
      return mapPiBash(imported, input, context);
    case 'edit':
      return rename('Edit', input, { path: 'path', oldText: 'old_str', newText: 'new_str' }, { kind: 'edit' });
    case 'write':
      return rename('Write', input, { path: 'path', content: 'file_text' }, { kind: 'write' });
    default:
      return UNCOMPARED.has(imported.name)
        ? { drop: `pi's ${imported.name}: its output is not compared yet` }
        : { drop: `not in the course's toolset: ${imported.name}` };
  }
}

// A read of a range is the view_range of the lines pi said it showed; one that said nothing read from its offset
// to the end (pi notes every read it stopped short of the end).
function mapPiRead(imported: ImportedCall, input: Record<string, unknown>): Mapping | Dropped {
  if (/\[image\]/.test(imported.result?.content ?? '') && imported.result?.isError !== true)
    return { drop: 'Read of a non-text file (image)' };
  const mapping = rename('Read', input, { path: 'path' }, { kind: 'view' });
  for (const key of ['offset', 'limit']) if (key in mapping.droppedKeys) mapping.renamedKeys[key] = 'view_range';
  const shown = asRecord(asRecord(imported.result?.details)?.shown);
  const { start, end, total } = shown ?? {};
  if (typeof start === 'number' && typeof end === 'number' && typeof total === 'number')
    mapping.call.input.view_range = [start, end >= total ? -1 : end];
  else if (typeof input.offset === 'number' && Number.isInteger(input.offset) && input.offset > 1)
    mapping.call.input.view_range = [input.offset, -1];
  return mapping;
}

// pi's shell starts every command in the session's directory, as the course's does.
function mapPiBash(imported: ImportedCall, input: Record<string, unknown>, context: MapContext): Mapping | Dropped {
  if (/\n\n\[Showing (?:lines|last) [^\]]*Full output: [^\]]*\]$/.test(imported.result?.content ?? ''))
    return { drop: 'Bash output cut by the agent' };
  if (context.subdir === undefined) return { drop: "Bash after a cd out of the session's directory" };
  const mapping = rename('Bash', input, { command: 'command', timeout: 'timeout' }, { kind: 'bash' });
  const { command, timeout } = mapping.call.input;
  if (typeof timeout === 'number') mapping.call.input.timeout = timeout * 1000;
  if (typeof command === 'string' && context.subdir !== '')
    mapping.call.input.command = `cd ${SANDBOX}/${context.subdir} && ${command}`;
  return mapping;
}
