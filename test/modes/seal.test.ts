// What the driver seals before the code under test loads (src/modes/seal.ts), in a real node process started as the
// grader starts a program's (after sealLanguage). The "code under test" here does what a student's module could:
// it listens to process.stdin (which also makes the pipes non-blocking, the case the seal waits through), and tries
// to swap JSON or its stringify. The driver's lines must arrive whole, as sent, and the listener hear none of them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { REPO, useScratch } from '../grade/course-fixture.ts';

const scratch = useScratch();
const SEAL = pathToFileURL(join(REPO, 'src', 'modes', 'seal.ts')).href;

const PROGRAM = `
import { linesIn, sealLanguage, writeOut } from '${SEAL}';
sealLanguage();
const heard = [];
const emit = process.stdin.emit.bind(process.stdin);
process.stdin.emit = (event, ...args) => { if (event === 'data') heard.push(String(args[0])); return emit(event, ...args); };
const swapped = [];
for (const swap of [() => { globalThis.JSON = { stringify: () => 'forged' }; }, () => { JSON.stringify = () => 'forged'; }]) {
  try { swap(); swapped.push('yes'); } catch (error) { swapped.push(error.constructor.name); }
}
for await (const line of linesIn()) writeOut(JSON.stringify({ line }) + '\\n');
writeOut(JSON.stringify({ heard: heard.join(''), swapped }) + '\\n');
process.exit(0);
`;

async function runSealed(input: string): Promise<unknown[]> {
  const file = join(scratch.root, 'program.mjs');
  await writeFile(file, PROGRAM);
  const { stdout } = await execa('node', ['--import', 'tsx', file], {
    cwd: REPO,
    input,
  });
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
}

describe('the sealed driver process', () => {
  it("reads its lines from fd 0 whole, while code listening to process.stdin hears none, and JSON can't be swapped", async () => {
    // Long lines, so that reads and writes span several chunks of the pipe.
    const lines = ['{"a":1}', 'x'.repeat(200_000), '{"b":"ünïcødé"}', 'last line, no break'];
    const out = await runSealed(`${lines.slice(0, 3).join('\n')}\r\n${lines[3]}`);
    expect(out).toEqual([...lines.map((line) => ({ line })), { heard: '', swapped: ['TypeError', 'TypeError'] }]);
  });
});
