import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processEnded } from '../support/process-ended.ts';

const TOOLS = resolve(fileURLToPath(import.meta.url), '../../../src/tools/index.ts');

let dir = '';
// Groups of the commands started, killed after each test so a failing one leaves nothing running.
const started: number[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-process-group-test-'));
});
afterEach(async () => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone: what the test expects.
    }
  }
  await rm(dir, { recursive: true, force: true });
});

// A process calling bash on a command that never ends, stopped from outside once the command is running.
async function stopMidCommand(signal: 'SIGTERM' | 'SIGINT' | 'SIGHUP') {
  const script = [
    `import { Tools } from ${JSON.stringify(TOOLS)};`,
    `await new Tools(${JSON.stringify(dir)}).bash('sleep 1000 & echo $! > bg; echo $$ > shell; echo ready > ready; wait');`,
  ].join('\n');
  const caller = execa('node', ['--import', 'tsx', '--input-type=module', '-e', script], { reject: false });
  while ((await readFile(join(dir, 'ready'), 'utf8').catch(() => '')) === '') {
    await new Promise((done) => setTimeout(done, 20));
  }
  caller.kill(signal);
  const shell = Number(await readFile(join(dir, 'shell'), 'utf8'));
  started.push(shell);
  const result = await caller;
  return { result, shell, background: Number(await readFile(join(dir, 'bg'), 'utf8')) };
}

describe('a caller stopped while a command runs', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)(
    '%s kills the command and its children, and still stops the caller',
    async (signal) => {
      const { result, background, shell } = await stopMidCommand(signal);
      expect(result.signal).toBe(signal);
      expect(await processEnded(shell)).toBe(true);
      expect(await processEnded(background)).toBe(true);
    },
  );
});
