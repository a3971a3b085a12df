// Claude Code's `toolUseResult`, kept lean: a long session holds megabytes of it, and most of the bulk is either
// derivable or never used by the recorder. What seeds and replay checks need stays (see ImportedResult.details).
import { isObject, type JsonObject } from './json-values.ts';

// A diff derivable from originalFile + old/new strings; token accounting of a subagent run.
const DROPPED = new Set(['structuredPatch', 'usage']);

// The evidence worth keeping: a string as recorded; an object without the derivable bulk (and without an image's
// base64 data); anything else dropped.
export function leanDetails(toolUseResult: unknown): unknown {
  if (typeof toolUseResult === 'string') return toolUseResult;
  if (!isObject(toolUseResult)) return undefined;
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(toolUseResult)) {
    if (DROPPED.has(key)) continue;
    kept[key] = key === 'file' && isObject(value) && 'base64' in value ? withoutKey(value, 'base64') : value;
  }
  return kept;
}

function withoutKey(object: JsonObject, key: string): JsonObject {
  const { [key]: _dropped, ...rest } = object;
  return rest;
}
