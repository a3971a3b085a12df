// What the loop probe saw of a plan loop, read as a loop's: the loop probe's scripts (src/modes/loop/judge/
// probe-scripts.ts) call no todo tool, so a plan loop that keeps its contract nags after their third round, which
// a loop does not. With the nag taken out of the user messages (every text block that reads like a reminder, and a
// message that holds nothing else), the loop probe's findings name the loop mistakes of a plan loop as they do an
// agent loop's, and the nag's own mistakes are left to the plan hints. Pure.

// A text block (or a message's string content) that reads like the nag, in the contract's words or others.
export function likeReminder(value: unknown): boolean {
  const text = typeof value === 'string' ? value : isText(value) ? value.text : undefined;
  return typeof text === 'string' && /reminder|todo/i.test(text);
}

export function withoutReminders(observed: unknown): unknown {
  if (Array.isArray(observed)) return observed.filter((m) => !nagAlone(m)).map(withoutReminders);
  if (observed === null || typeof observed !== 'object') return observed;
  const entry = observed as Record<string, unknown>;
  if (entry.role === 'user' && Array.isArray(entry.content))
    return { ...entry, content: entry.content.filter((b) => !(isText(b) && likeReminder(b))) };
  return Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, withoutReminders(v)]));
}

function nagAlone(m: unknown): boolean {
  if (m === null || typeof m !== 'object') return false;
  const { role, content } = m as Record<string, unknown>;
  if (role !== 'user') return false;
  return likeReminder(content) || (Array.isArray(content) && content.length > 0 && content.every(likeReminder));
}

function isText(b: unknown): b is { type: 'text'; text: unknown } {
  return b !== null && typeof b === 'object' && (b as { type?: unknown }).type === 'text';
}
