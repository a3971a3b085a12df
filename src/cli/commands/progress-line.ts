// A line on a terminal rewritten in place (at most ten times a second, and always for the last step) that says how
// far a long step is; nothing elsewhere, so a log or a pipe gets only the report. `clear` removes it before the
// report is written.
export type ProgressLine = { show: (line: string, last: boolean) => void; clear: () => void };

export function progressOn(stream: NodeJS.WritableStream & { isTTY?: boolean }): ProgressLine | undefined {
  if (stream.isTTY !== true) return undefined;
  let at = 0;
  let shown = false;
  return {
    show: (line, last) => {
      const now = Date.now();
      if (now - at < 100 && !last) return;
      at = now;
      shown = true;
      stream.write(`\r${line}\u001b[K`);
    },
    clear: () => {
      if (shown) stream.write('\r\u001b[K');
      shown = false;
    },
  };
}
