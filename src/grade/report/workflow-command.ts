import { createHash } from 'node:crypto';
import { plainText } from './plain-text.ts';

// GitHub Actions workflow commands (`::name key=value,key=value::data`), escaped the way the runner unescapes
// them (actions/runner src/Runner.Common/ActionCommand.cs).

// Command data: one line whatever it contains.
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

// A property value: also no `:` (it would end the properties) and no `,` (it would start another one).
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

// One workflow command line.
export function workflowCommand(name: string, properties: Record<string, string>, data: string): string {
  const props = Object.entries(properties).map(([key, value]) => `${key}=${escapeProperty(value)}`);
  return `::${name}${props.length === 0 ? '' : ` ${props.join(',')}`}::${escapeData(data)}`;
}

// What every line of untrusted text is prefixed with: never whitespace, which the runner trims before looking
// for `::`.
export const UNTRUSTED_PREFIX = '| ';

// Untrusted text (a student's output, or anything quoting it) as log lines that the runner cannot act on:
// every line prefixed, and the whole between `::stop-commands::TOKEN` and `::TOKEN::`. Both are needed: the
// prefix alone does not stop the legacy `##[command]` syntax, which the runner finds anywhere in a line, and
// stop-commands alone would leave lines starting with `##[group]` or `::` for the log viewer to decorate.
// The token is a hash of the quarantined lines, so it cannot occur in them (that would need a SHA-256 fixed
// point): unguessable by the text it guards, yet the same for the same report.
export function quarantine(text: string): string[] {
  const lines = plainText(text)
    .split('\n')
    .map((line) => UNTRUSTED_PREFIX + line);
  const token = `theinference-${createHash('sha256').update(lines.join('\n')).digest('hex')}`;
  return [`::stop-commands::${token}`, ...lines, `::${token}::`];
}
