// The live capture format: what `theinference record --live` tees to disk and `--keep-transcript` keeps, and what
// `theinference record <capture.jsonl>` reads back (src/record/formats/live.ts). JSONL, one record per line:
//
//   {"type":"session", "format":"theinference-live-capture", "version":1, "upstream", "workspace", "startedAt", …}
//   {"type":"workspace", "files":{path: contents}, "omitted":[…]}   the workspace before the agent started
//   {"type":"exchange", "id", "request":{…,"body"}, "response":{…,"body"}, …}   one per HTTP exchange, as each ends
//   {"type":"end", "endedAt", "agent":{…}}   how the agent's run ended (absent when theinference itself was killed)
//
// Bodies are text exactly as they crossed the proxy (decompressed), with credential headers and key-shaped strings
// replaced by "[redacted]". Exchanges are in the order they ended; `id` is the order they began.
import type { FileSpec } from '../../course/types.ts';

// The `format` of a capture's first line, by which the importers recognise it.
export const CAPTURE_FORMAT = 'theinference-live-capture';

export type SessionLine = {
  type: 'session';
  format: typeof CAPTURE_FORMAT;
  version: 1;
  startedAt: string;
  // Where the proxy forwarded to, e.g. https://api.anthropic.com.
  upstream: string;
  // The workspace's absolute path: the agent's working directory, which becomes <sandbox> in a case.
  workspace: string;
  // The agent command, when the session ran one (absent for recordExecute).
  command?: string[];
};

// The workspace as it was before the agent started: relative path → contents, as a case's `files`.
export type WorkspaceLine = {
  type: 'workspace';
  files: Record<string, FileSpec>;
  // Files left out, and why (over the size cap, unreadable, a special file).
  omitted: Array<{ path: string; reason: string }>;
};

export type RequestHead = { method: string; path: string; headers: Record<string, string> };
export type ResponseHead = { status: number; headers: Record<string, string> };
// A body as captured: its text (absent bytes are an empty string), its size on the wire, and why it was left out.
export type CapturedBody = { body: string; bytes: number; omitted?: string };

export type ExchangeLine = {
  type: 'exchange';
  id: number;
  startedAt: string;
  endedAt: string;
  request: RequestHead & CapturedBody;
  // What the agent received: the upstream's response, or the proxy's own 502 when the upstream could not be reached.
  response?: ResponseHead & CapturedBody;
  // The upstream could not be reached or failed mid-response.
  error?: string;
  // The exchange was cut short: the client disconnected, or the proxy was stopped.
  aborted?: string;
};

export type EndLine = {
  type: 'end';
  endedAt: string;
  agent: { exitCode?: number; signal?: string; interrupted?: boolean; failed?: string };
};

export type CaptureLine = SessionLine | WorkspaceLine | ExchangeLine | EndLine;
