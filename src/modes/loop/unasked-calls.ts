// The calls the scripted execute refused (no tool_use waiting asked for them) whose answer reached no message the
// loop sent, nor how it ended: a tool of a turn cut off by max_tokens run, its result thrown away. A refusal that
// went out shows in the results already; one thrown away would show nowhere, so the loop's end names the call.
// Pure.

// A call of execute: the tool name it was given, and its input as JSON carries it (none when it was given none).
export type ExecuteCallMade = { tool: unknown; input?: unknown };

// A call as a message says it: `execute("Write", {"path":"README.md"})`.
export function callText(call: ExecuteCallMade): string {
  return `execute(${JSON.stringify(call.tool)}, ${JSON.stringify(call.input)})`;
}

// A call the scripted execute refused, and its answer's content.
export type Refusal = { call: ExecuteCallMade; answer: string };

// The refused calls whose answer is in none of `seen` (the requests as sent, and the loop's end): found as written,
// inside a longer text (a prefix added) or as JSON writes it (JSON.stringify of the output).
export function unaskedCalls(refused: Refusal[], seen: unknown[]): ExecuteCallMade[] {
  const texts = stringsIn(seen);
  return refused
    .filter(({ answer }) => {
      const escaped = JSON.stringify(answer).slice(1, -1);
      return !texts.some((text) => text.includes(answer) || text.includes(escaped));
    })
    .map(({ call }) => call);
}

function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringsIn(item, into);
  return into;
}
