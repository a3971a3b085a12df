// Transcripts of agents the importers do not read yet, recognised so the author hears what the file is and what
// to do instead of "no known format".
import { arrayAt, isObject, objectAt, stringAt } from './json-values.ts';

// What a value is when it is an OpenCode session's (its storage files: a session, a message or a part, each
// `ses_…`, `msg_…`, `prt_…` with a `sessionID`; or `opencode export`'s `{info, messages}`), else undefined.
export function recogniseUnsupported(value: unknown): string | undefined {
  if (!isObject(value)) return undefined;
  const info = objectAt(value, 'info');
  const exported = info !== undefined && stringAt(info, 'id')?.startsWith('ses_') && arrayAt(value, 'messages');
  const stored =
    (typeof value.sessionID === 'string' && /^(?:msg|prt)_/.test(stringAt(value, 'id') ?? '')) ||
    (/^ses_/.test(stringAt(value, 'id') ?? '') && typeof value.projectID === 'string');
  if (!exported && !stored) return undefined;
  return (
    'an OpenCode session, which theinference does not read yet; record the agent live instead: ' +
    '`theinference record --live --stage <slug> -- opencode …` captures its session through a local API proxy'
  );
}
