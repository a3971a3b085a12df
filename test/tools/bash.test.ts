import { realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processEnded } from '../support/process-ended.ts';
import type { ToolOutput } from '../../src/tools/index.ts';
import { useSandbox } from './temp-sandbox.ts';

const box = useSandbox();

const error = (content: string): ToolOutput => ({ content, is_error: true });
const ran = (content: string, exit_code = 0): ToolOutput => ({ content, is_error: exit_code !== 0, exit_code });
const TIMED_OUT = (ms: number) => `\n[timed out after ${ms} ms; the command and its children were killed]`;

// Background processes the tests start, killed afterwards in case a test fails before the tool killed them.
const leftovers: number[] = [];
afterEach(() => {
  for (const pid of leftovers.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone: what the test expects.
    }
  }
});

describe('bash', () => {
  const rows: Array<{ name: string; command: string; expected: ToolOutput }> = [
    { name: 'the course page example', command: 'echo hi', expected: ran('hi\n') },
    {
      name: 'stdout and stderr in the order written',
      command: 'echo a; echo b >&2; echo c',
      expected: ran('a\nb\nc\n'),
    },
    { name: 'output untrimmed', command: 'printf "  a  \\n\\n"', expected: ran('  a  \n\n') },
    { name: 'no output', command: 'true', expected: ran('') },
    { name: 'an empty command', command: '', expected: ran('') },
    { name: 'a non-zero exit is an error with its output', command: 'echo out; exit 3', expected: ran('out\n', 3) },
    { name: "bash's own messages", command: 'nosuch', expected: ran('bash: line 1: nosuch: command not found\n', 127) },
    { name: 'killed by SIGKILL', command: 'kill -KILL $$', expected: ran('', 137) },
    { name: 'killed by SIGTERM', command: 'kill -TERM $$', expected: ran('', 143) },
    { name: 'stdin is closed', command: 'read line; echo "rc=$?"; cat', expected: ran('rc=1\n') },
    {
      name: 'the environment is exactly the fixed one',
      command: 'env | cut -d= -f1 | sort',
      expected: ran('HOME\nLANG\nPATH\nPWD\nSHLVL\nTZ\n_\n'),
    },
    { name: 'LANG and TZ', command: 'echo "$LANG $TZ"', expected: ran('C.UTF-8 UTC\n') },
    { name: 'invalid UTF-8 becomes U+FFFD', command: "printf 'a\\377b'", expected: ran('a\uFFFDb') },
  ];
  it.each(rows)('$name', async ({ command, expected }) => {
    expect(await box.tools.bash(command)).toEqual(expected);
  });

  it('runs in the sandbox, with HOME there and the host PATH', async () => {
    await box.seed({ 'a.txt': '' });
    const real = await realpath(box.root);
    expect(await box.tools.bash('pwd; ls; echo "$HOME"; echo "$PATH"')).toEqual(
      ran(`${real}\na.txt\n${box.root}\n${process.env.PATH}\n`),
    );
  });

  describe('a host secret', () => {
    afterEach(() => {
      delete process.env.THEINFERENCE_TEST_SECRET;
    });
    it('never reaches the command', async () => {
      process.env.THEINFERENCE_TEST_SECRET = 's3cret';
      expect(await box.tools.bash('echo "[${THEINFERENCE_TEST_SECRET-unset}]"; env | grep -c s3cret')).toEqual(
        ran('[unset]\n0\n', 1),
      );
    });
  });

  it('kills what the command left running in the background, and returns', async () => {
    const result = await box.tools.bash('sleep 1000 & echo $! > pid; echo started');
    leftovers.push(Number(await box.read('pid')));
    expect(result).toEqual(ran('started\n'));
    expect(await processEnded(Number(await box.read('pid')))).toBe(true);
  });

  it('decodes a multi-byte character split across chunks', async () => {
    // 29,999 three-byte characters: about 90 KB, so the pipe delivers it in pieces cut mid-character.
    expect(await box.tools.bash("printf '€%.0s' $(seq 1 29999)")).toEqual(ran('€'.repeat(29_999)));
  });
});

describe('bash: timeout', () => {
  it('kills the command and its children, keeping the output so far', async () => {
    const result = await box.tools.bash('sleep 1000 & echo $! > pid; echo before; sleep 1000', 300);
    leftovers.push(Number(await box.read('pid')));
    expect(result).toEqual({ content: `before\n${TIMED_OUT(300)}`, is_error: true, exit_code: 124 });
    expect(await processEnded(Number(await box.read('pid')))).toBe(true);
  });

  it('accepts the bounds', async () => {
    expect(await box.tools.bash('echo ok', 1)).toMatchObject({ exit_code: expect.any(Number) });
    expect(await box.tools.bash('echo ok', 600_000)).toEqual(ran('ok\n'));
    expect(await box.tools.bash('echo ok', null)).toEqual(ran('ok\n'));
  });

  const invalid = (json: string) =>
    error(`Invalid parameter 'timeout': expected a whole number of milliseconds from 1 to 600000, got ${json}`);
  const rows: Array<{ timeout: unknown; expected: ToolOutput }> = [
    { timeout: 0, expected: invalid('0') },
    { timeout: -5, expected: invalid('-5') },
    { timeout: 600_001, expected: invalid('600001') },
    { timeout: 1.5, expected: invalid('1.5') },
    { timeout: '1000', expected: invalid('"1000"') },
    { timeout: [1000], expected: invalid('[1000]') },
  ];
  it.each(rows)('refuses $timeout', async ({ timeout, expected }) => {
    expect(await box.tools.bash('echo ran > ran.txt', timeout)).toEqual(expected);
    await expect(box.read('ran.txt')).rejects.toThrow(/ENOENT/);
  });
});

describe('bash: output over 30,000 characters', () => {
  const xs = (n: number) => `head -c ${n} /dev/zero | tr '\\0' x`;
  const rows: Array<{ name: string; command: string; expected: string }> = [
    { name: 'exactly 30,000 is kept whole', command: xs(30_000), expected: 'x'.repeat(30_000) },
    {
      name: 'one more is counted',
      command: xs(30_001),
      expected: `${'x'.repeat(30_000)}\n[output truncated: 1 more characters]`,
    },
    {
      name: 'ten megabytes are counted, not kept',
      command: xs(10_000_000),
      expected: `${'x'.repeat(30_000)}\n[output truncated: 9970000 more characters]`,
    },
    {
      name: 'a cut never splits a surrogate pair',
      command: `${xs(29_999)}; printf '😀y'`,
      expected: `${'x'.repeat(29_999)}\n[output truncated: 3 more characters]`,
    },
  ];
  it.each(rows)('$name', async ({ command, expected }) => {
    expect(await box.tools.bash(command)).toEqual(ran(expected));
  });

  it('truncated and then timed out', async () => {
    expect(await box.tools.bash(`${xs(40_000)}; sleep 1000`, 500)).toEqual({
      content: `${'x'.repeat(30_000)}\n[output truncated: 10000 more characters]${TIMED_OUT(500)}`,
      is_error: true,
      exit_code: 124,
    });
  });
});

describe('bash: errors', () => {
  const rows: Array<{ command: unknown; expected: ToolOutput }> = [
    { command: undefined, expected: error("Missing required parameter 'command'") },
    { command: null, expected: error("Missing required parameter 'command'") },
    { command: 42, expected: error("Invalid parameter 'command': expected a string, got number") },
    { command: ['ls'], expected: error("Invalid parameter 'command': expected a string, got array") },
    { command: 'echo a\0b', expected: error("Invalid parameter 'command': it must not contain a NUL byte") },
  ];
  it.each(rows)('$command', async ({ command, expected }) => {
    expect(await box.tools.bash(command)).toEqual(expected);
  });

  it('says so when the shell cannot start', async () => {
    await rm(box.root, { recursive: true });
    const result = await box.tools.bash('echo hi');
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/^Cannot run command: /);
    expect(result).not.toHaveProperty('exit_code');
  });

  it('a symlink made by bash cannot be used to leave', async () => {
    await box.tools.bash(`ln -s '${join(box.outside, 'secret.txt')}' s`);
    expect(await box.tools.view('s')).toEqual(error('Path escapes workspace: s'));
  });
});
