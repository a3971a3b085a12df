// What the live proxy removes before a request or response touches the disk: the values of credential headers
// (API keys, bearer tokens, cookies, organisation and project ids), credential query parameters, and anything
// shaped like a known API key inside a body, glued to what precedes it or not (`key%3Dsk-ant-…`, `\nsk-ant-…`). Bodies
// arrive in chunks, so the text redactor holds back the tail of a chunk that could be the start of a key, or an
// escape right before one, until the next chunk says where it ends.

import { KEY_CHAR, keyPattern } from '../map/key-shapes.ts';

// What stands in for a removed value.
export const REDACTED = '[redacted]';

// Header names whose values are credentials or identify the account: x-api-key, authorization, anthropic-api-key,
// openai-api-key, api-key (Azure), cookie, set-cookie, x-goog-api-key, openai-organization, anthropic-organization-id…
const SECRET_HEADER = /auth|key|token|secret|cookie|session|password|credential|organization|project/i;

// Query parameters that carry a key (`?key=…`, `?api_key=…`, `?access_token=…`).
const SECRET_PARAM = /^(key|api[-_]?key|access[-_]?token|token|secret|password|sig|signature)$/i;

// Keys by their known shapes (Anthropic, OpenAI, GitHub, AWS, Slack, JWTs: ../key-shapes.ts, the case redactor's too).
const KEY = keyPattern();

// A trailing run of token characters longer than this is released even if unfinished: no key is this long, and
// holding more would let one endless token grow the proxy's memory.
const MAX_HELD = 4096;

// Header values as recorded: credential values replaced, names kept (lower-cased, as Node gives them).
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    out[name.toLowerCase()] = SECRET_HEADER.test(name) ? REDACTED : redactText(text);
  }
  return out;
}

// A request target (`/v1/messages?beta=true`) with credential query values replaced.
export function redactPath(path: string): string {
  const at = path.indexOf('?');
  if (at === -1) return redactText(path);
  const params = path
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decodeSafely(eq === -1 ? pair : pair.slice(0, eq));
      return eq !== -1 && SECRET_PARAM.test(name) ? `${pair.slice(0, eq)}=${REDACTED}` : pair;
    });
  return redactText(`${path.slice(0, at)}?${params.join('&')}`);
}

// Every known-shape key in a complete text replaced.
export function redactText(text: string): string {
  return text.replace(KEY, REDACTED);
}

// A redactor for text that arrives in pieces: `push` returns what is safe to write now, `end` the rest.
export type StreamRedactor = { push: (text: string) => string; end: () => string };

// Redacts a stream of text so that a key split across two chunks is still found whole.
export function streamRedactor(): StreamRedactor {
  let held = '';
  return {
    push(text) {
      const all = held + text;
      const tail = tokenTail(all);
      const keep = tail > MAX_HELD ? 0 : tail;
      held = all.slice(all.length - keep);
      return redactText(all.slice(0, all.length - keep));
    },
    end() {
      const rest = redactText(held);
      held = '';
      return rest;
    },
  };
}

// How many token characters end `text`, counting no further than MAX_HELD + 1 (a regex anchored at the end would
// try every start position: quadratic on a long run of them).
function tokenTail(text: string): number {
  let n = 0;
  while (n <= MAX_HELD && n < text.length && KEY_CHAR.test(text[text.length - 1 - n] as string)) n++;
  return n;
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
