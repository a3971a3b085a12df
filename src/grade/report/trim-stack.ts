// A load failure's output without the stack frames of Node and node_modules: the error and the student's own
// frames are what say where it went wrong; esbuild's and Node's loader's frames say nothing a student can act on.

// Frames inside Node (`node:…`) or a dependency (`/node_modules/`).
const FOREIGN_FRAME = /^\s+at .*(\bnode:|\/node_modules\/)/;
// Node's source excerpt of where an uncaught error surfaced, when that is Node's own code: its location line,
// the source line and the caret under it.
const FOREIGN_EXCERPT = /^node:[\w/]+:\d+$/;

// The output with foreign frames (and the properties printed after the last of them) left out and runs of blank
// lines made one, and how many lines went.
export function trimStack(output: string): { text: string; dropped: number } {
  const lines = output.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  let dropped = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FOREIGN_EXCERPT.test(line)) {
      dropped += 3;
      i += 2;
      continue;
    }
    if (!FOREIGN_FRAME.test(line)) {
      kept.push(line);
      continue;
    }
    dropped += 1;
    // `at … {` opens the error's own properties (`code: 'ERR_MODULE_NOT_FOUND'`), closed by a lone `}`.
    if (line.endsWith('{')) {
      const close = lines.indexOf('}', i + 1);
      if (close !== -1) {
        dropped += close - i;
        i = close;
      }
    }
  }
  return {
    text: kept
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .replace(/^\n+/, ''),
    dropped,
  };
}
