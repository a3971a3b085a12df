// Safe reading of parsed JSON whose shape nobody promised: every importer goes through these, so a byte flip that
// turns an object into a number or a string into null is a value that does not fit, never a TypeError.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringAt(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

export function objectAt(object: JsonObject, key: string): JsonObject | undefined {
  const value = object[key];
  return isObject(value) ? value : undefined;
}

export function arrayAt(object: JsonObject, key: string): unknown[] | undefined {
  const value = object[key];
  return Array.isArray(value) ? value : undefined;
}

// JSON.parse as data: the value, or the parser's message.
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

// A tool input the model sent as a JSON string (OpenAI's `arguments`, Anthropic's streamed `partial_json`): the
// object, or why it cannot be used.
export function parseToolInput(text: string): { input: JsonObject } | { malformed: string } {
  const parsed = parseJson(text.trim() === '' ? '{}' : text);
  if (!parsed.ok)
    return { malformed: `input is not valid JSON (${parsed.error}); ${text.length} characters: ${preview(text)}` };
  if (!isObject(parsed.value)) return { malformed: `input is JSON but not an object: ${preview(text)}` };
  return { input: parsed.value };
}

// An input object sent as a value: the object, or why it cannot be used.
export function toolInputValue(value: unknown): { input: JsonObject } | { malformed: string } {
  if (isObject(value)) return { input: value };
  return { malformed: `input is not an object: ${preview(JSON.stringify(value) ?? String(value))}` };
}

// The text the model read from a tool result's content: a string as is, content blocks' text joined by newlines,
// other blocks (images, documents) as a `[type]` marker.
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? '' : JSON.stringify(content);
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObject(block)) {
      const text = stringAt(block, 'text');
      parts.push(text ?? `[${stringAt(block, 'type') ?? 'block'}]`);
    }
  }
  return parts.join('\n');
}

// The start of a long text, for messages.
export function preview(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
}
