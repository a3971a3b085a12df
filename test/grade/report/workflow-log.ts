// Reads a step's log the way the GitHub Actions runner does, to check what it would act on:
// actions/runner src/Runner.Common/ActionCommand.cs (TryParseV2 for `::name props::data`, TryParse for the
// legacy `##[name props]data`, found anywhere in a line) and src/Runner.Worker/ActionCommandManager.cs
// (`stop-commands` pauses everything until `::TOKEN::`). Lines end at `\r\n`, `\r` or `\n` (.NET ReadLine).

// The commands a runner registers (its command extensions, plus stop-commands).
export const REGISTERED = [
  'add-mask',
  'add-matcher',
  'add-path',
  'debug',
  'echo',
  'endgroup',
  'error',
  'group',
  'notice',
  'remove-matcher',
  'save-state',
  'set-env',
  'set-output',
  'stop-commands',
  'warning',
];

// A command the runner would process, unescaped, with its 0-based line.
export type Command = { name: string; properties: Record<string, string>; data: string; line: number };
// A line the runner would only print; `stopped` when commands were suspended there.
export type LogLine = { text: string; line: number; stopped: boolean };
// A whole log, read.
export type Log = { commands: Command[]; plain: LogLine[]; lines: string[] };

// Every line of `text`, sorted into the commands the runner would process (stop/resume included) and the
// plain lines it would only print, each marked with whether commands were stopped at that point.
export function readLog(text: string, options: { honourStop: boolean } = { honourStop: true }): Log {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === '') lines.pop();
  const registered = new Set(REGISTERED);
  const log: Log = { commands: [], plain: [], lines };
  let stopToken: string | null = null;
  for (const [line, text] of lines.entries()) {
    const command = parseV2(text, registered) ?? parseV1(text, registered);
    const stopped = stopToken !== null;
    if (command === null) {
      log.plain.push({ text, line, stopped });
      continue;
    }
    if (stopped) {
      if (command.name.toLowerCase() !== stopToken!.toLowerCase()) {
        log.plain.push({ text, line, stopped });
        continue;
      }
      registered.delete(stopToken!.toLowerCase());
      stopToken = null;
    } else if (command.name.toLowerCase() === 'stop-commands' && options.honourStop) {
      stopToken = command.data;
      registered.add(stopToken.toLowerCase());
    }
    log.commands.push({ ...command, line });
  }
  return log;
}

function parseV2(raw: string, registered: Set<string>): Omit<Command, 'line'> | null {
  const message = raw.trimStart();
  if (!message.startsWith('::')) return null;
  const end = message.indexOf('::', 2);
  if (end < 0) return null;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!registered.has(name.toLowerCase())) return null;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .trim()
      .split(',')
      .filter((p) => p !== '')) {
      const eq = pair.indexOf('=');
      if (eq > 0 && eq < pair.length - 1) properties[pair.slice(0, eq)] = unescapeWith(pair.slice(eq + 1), PROPERTY);
    }
  }
  return { name, properties, data: unescapeWith(message.slice(end + 2), DATA) };
}

function parseV1(message: string, registered: Set<string>): Omit<Command, 'line'> | null {
  const start = message.indexOf('##[');
  if (start < 0) return null;
  const end = message.indexOf(']', start);
  if (end < 0) return null;
  const info = message.slice(start + 3, end);
  const space = info.indexOf(' ');
  const name = space < 0 ? info : info.slice(0, space);
  if (!registered.has(name.toLowerCase())) return null;
  return { name, properties: {}, data: unescapeWith(message.slice(end + 1), LEGACY) };
}

// The runner's unescape tables, applied in its order.
const DATA: [string, string][] = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
];
const PROPERTY: [string, string][] = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
];
const LEGACY: [string, string][] = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
];

function unescapeWith(text: string, table: [string, string][]): string {
  return table.reduce((s, [from, to]) => s.split(from).join(to), text);
}
