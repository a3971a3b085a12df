// A warm standby program process, run as `node --import <tsx> standby.ts <mode>` in the course directory. Node and tsx
// are loaded ahead of time; nothing of the course is. It waits until its work arrives on stdin (the cases, as
// JSON lines, exactly as `program.ts <mode> -` reads them), then sets process.argv as `node program.ts <mode> -`
// would and imports program.ts, whose own main-module check runs its main, which reads those very lines. So
// the course's code is read only once work arrives, and each standby serves exactly one batch.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// Wait without reading: what arrives stays buffered for program.ts.
await new Promise((ready) => process.stdin.once('readable', ready));
// Readable with nothing in it: stdin ended without work (the grader went away).
if (process.stdin.readableLength > 0) {
  // As Node sets it for `node program.ts`: the absolute path, not resolved through links.
  const program = resolve('program.ts');
  process.argv = [process.argv[0] ?? process.execPath, program, process.argv[2] ?? 'dispatch', '-'];
  await import(pathToFileURL(program).href);
} else {
  process.stdin.destroy();
}
