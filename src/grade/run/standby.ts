// A warm standby program process, run as `node --import <tsx> standby.ts` in the course directory. Node and tsx
// are loaded ahead of time; nothing of the course is. It waits for one line on stdin (a JSON array of case
// files), then sets process.argv as `node program.ts dispatch <case files…>` would and imports program.ts, whose
// own main-module check then runs its main. So the course's code is read only once work arrives, and each
// standby serves exactly one batch.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// The first line of `input`, or undefined when it closes without one (the grader went away).
async function firstLine(input: NodeJS.ReadableStream): Promise<string | undefined> {
  let text = '';
  for await (const chunk of input) {
    text += String(chunk);
    const end = text.indexOf('\n');
    if (end !== -1) return text.slice(0, end);
  }
  return undefined;
}

const line = await firstLine(process.stdin);
// Nothing more comes on stdin; left open, it would keep the process alive after the program's last case.
process.stdin.destroy();
if (line !== undefined) {
  const files: unknown = JSON.parse(line);
  if (!Array.isArray(files) || !files.every((f) => typeof f === 'string')) {
    throw new Error(`standby: expected a JSON array of case files on stdin, got ${line.slice(0, 200)}`);
  }
  // As Node sets it for `node program.ts`: the absolute path, not resolved through links.
  const program = resolve('program.ts');
  process.argv = [process.argv[0] ?? process.execPath, program, 'dispatch', ...files];
  await import(pathToFileURL(program).href);
}
