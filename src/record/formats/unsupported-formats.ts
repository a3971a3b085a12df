// Transcripts of agents the importers do not read yet, recognised so the author hears what the file is and what
// to do instead of "no known format", or worse, of being read as another format ("read as anthropic … an event of
// unknown type step_start"): OpenCode's storage files and `opencode export`, and three event streams an agent
// prints as it runs, each told by a line's own shape:
// - `opencode run --format json`: `{"type": "step_start" | "tool_use" | "text" | "step_finish" | "error",
//   "sessionID": "ses_…", "part": {…}}` (opencode's run command; public wrappers parse these lines);
// - `codex exec --json`: `{"type": "thread.started", "thread_id"}`, `turn.started`, `item.started` /
//   `item.updated` / `item.completed` with an `item` (`command_execution`, `agent_message`, `file_change`…),
//   `turn.completed`, `turn.failed` (Codex CLI's exec events; its rollout file is read, as `codex`);
// - pi's print-mode events (`pi --mode json`): `{"type": "session", "id", "cwd"}`, `agent_start`, `turn_start`,
//   `message_start` / `message_update` / `message_end` with a pi `message`, `tool_execution_start` /
//   `tool_execution_end` with `toolCallId`, `toolName`, `args` / `result`, `turn_end`, `agent_end` (pi's own
//   session file, which has none of these lines, is read: formats/pi-session.ts).
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

// The event streams named above, by the type of a line and what it carries.
const UNREAD_STREAMS: { name: string; is: (v: Record<string, unknown>) => boolean; instead: string }[] = [
  {
    name: "`opencode run --format json` output (OpenCode's run events: step_start, tool_use, text, step_finish)",
    is: (v) =>
      typeof v.sessionID === 'string' &&
      isObject(v.part) &&
      ['step_start', 'step_finish', 'tool_use', 'text', 'reasoning', 'error'].includes(String(v.type)),
    instead: '`theinference record --live --stage <slug> -- opencode …`',
  },
  {
    name: "`codex exec --json` output (Codex CLI's exec events: thread.started, item.completed, turn.completed)",
    is: (v) =>
      (v.type === 'thread.started' && typeof v.thread_id === 'string') ||
      (/^item\.(?:started|updated|completed)$/.test(String(v.type)) && isObject(v.item)) ||
      /^turn\.(?:started|completed|failed)$/.test(String(v.type)),
    instead: "the session's rollout, `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, which `--format codex` reads",
  },
  {
    name: "pi's print-mode events (`pi --mode json`: agent_start, message_end, tool_execution_start, tool_execution_end)",
    is: (v) =>
      (/^tool_execution_(?:start|update|end)$/.test(String(v.type)) && typeof v.toolName === 'string') ||
      ['agent_start', 'agent_end', 'turn_start', 'turn_end'].includes(String(v.type)) ||
      (/^message_(?:start|update|end)$/.test(String(v.type)) &&
        isObject(v.message) &&
        ('assistantMessageEvent' in v || Array.isArray(v.message.content) || typeof v.message.role === 'string') &&
        // An Anthropic stream's message_start carries a Message (`type: "message"`, an `msg_…` id).
        v.message.type !== 'message' &&
        !String(v.message.id ?? '').startsWith('msg_')),
    instead: '`theinference record --live --stage <slug> -- pi …`',
  },
];

// What a line of an agent's event stream the importers do not read is, and what to record instead (undefined:
// none of them).
export function recogniseUnreadStream(value: unknown): string | undefined {
  if (!isObject(value) || typeof value.type !== 'string') return undefined;
  const stream = UNREAD_STREAMS.find((s) => s.is(value));
  if (stream === undefined) return undefined;
  return `${stream.name}, which theinference does not read; instead, record ${stream.instead}`;
}
