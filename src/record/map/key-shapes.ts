// API keys and tokens known by their shape: one list for the case redactor (redact.ts) and the live proxy's
// capture (live/redact-secrets.ts), so a key either would remove, both remove. Each is a run of token characters
// after a word boundary, which is what lets the proxy redact a stream chunk by chunk.
export type KeyShape = { kind: string; label: string; source: string };

export const KEY_SHAPES: readonly KeyShape[] = [
  { kind: 'Anthropic key', label: 'anthropic-key', source: 'sk-ant-[A-Za-z0-9_-]{16,}' },
  { kind: 'OpenAI key', label: 'openai-key', source: 'sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}' },
  {
    kind: 'GitHub token',
    label: 'github-token',
    source: '(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})',
  },
  { kind: 'AWS key', label: 'aws-key', source: '(?:AKIA|ASIA)[0-9A-Z]{16}\\b' },
  { kind: 'Slack token', label: 'slack-token', source: 'xox[abposr]-[A-Za-z0-9-]{10,}' },
];

// A global regex for one shape, or (without `shape`) for any of them.
export function keyPattern(shape?: KeyShape): RegExp {
  const source = shape === undefined ? `(?:${KEY_SHAPES.map((k) => k.source).join('|')})` : shape.source;
  return new RegExp(`\\b${source}`, 'g');
}
