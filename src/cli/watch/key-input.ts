// The stdin adapter. A terminal is put in raw mode so a single key press acts at once (and Ctrl-C arrives as a
// key, so quitting goes through the same clean shutdown as `q`); piped stdin is read a line at a time so that
// scripts and tests can drive watch mode with `a`, `f`, `p`, `q` and a newline.
import { splitKeys } from './keys.ts';

// One key pressed on a terminal, or one line read from a pipe.
export type KeyInputEvent = { kind: 'key'; key: string } | { kind: 'line'; line: string };

// Stops reading and restores the terminal: after `close` stdin holds the process open no longer.
export type KeyInput = { close: () => void };

type MaybeTty = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

// Starts reading keys from `stdin`, reporting each to `onInput`.
export function readKeys(stdin: NodeJS.ReadableStream, onInput: (event: KeyInputEvent) => void): KeyInput {
  const input = stdin as MaybeTty;
  const raw = input.isTTY === true && typeof input.setRawMode === 'function';
  let buffered = '';
  const onData = (chunk: string | Buffer): void => {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (raw) {
      for (const key of splitKeys(text)) onInput({ kind: 'key', key });
      return;
    }
    buffered += text;
    let newline = buffered.indexOf('\n');
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      onInput({ kind: 'line', line });
      newline = buffered.indexOf('\n');
    }
  };

  if (raw) input.setRawMode?.(true);
  input.setEncoding('utf8');
  input.on('data', onData);
  input.resume();

  return {
    close() {
      input.removeListener('data', onData);
      if (raw) input.setRawMode?.(false);
      input.pause();
    },
  };
}
