import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../../src/errors.ts';
import { typeCheckSetting } from '../../../src/grade/type-check/type-check-setting.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-typecheck-setting-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('typeCheckSetting', () => {
  it.each([
    { name: 'no package.json', manifest: undefined, setting: 'note' },
    { name: 'a package.json that is not JSON', manifest: '{', setting: 'note' },
    { name: 'no theinference key', manifest: '{"name":"c"}', setting: 'note' },
    { name: 'a theinference key without typecheck', manifest: '{"theinference":{}}', setting: 'note' },
    { name: 'note', manifest: '{"theinference":{"typecheck":"note"}}', setting: 'note' },
    { name: 'fail', manifest: '{"theinference":{"typecheck":"fail"}}', setting: 'fail' },
    { name: 'off', manifest: '{"theinference":{"typecheck":"off"}}', setting: 'off' },
  ])('$name: $setting', async ({ manifest, setting }) => {
    if (manifest !== undefined) await writeFile(join(dir, 'package.json'), manifest);
    expect(await typeCheckSetting(dir)).toBe(setting);
  });

  it("THEINFERENCE_TYPECHECK is the default where package.json says nothing, and package.json's setting wins", async () => {
    expect(await typeCheckSetting(dir, { THEINFERENCE_TYPECHECK: 'off' })).toBe('off');
    expect(await typeCheckSetting(dir, { THEINFERENCE_TYPECHECK: 'sometimes' })).toBe('note');
    await writeFile(join(dir, 'package.json'), '{"theinference":{"typecheck":"fail"}}');
    expect(await typeCheckSetting(dir, { THEINFERENCE_TYPECHECK: 'off' })).toBe('fail');
  });

  it('a package.json that is a FIFO is never opened: the default', async () => {
    execFileSync('mkfifo', [join(dir, 'package.json')]);
    expect(await typeCheckSetting(dir)).toBe('note');
  });

  it('any other value is refused, naming the three settings', async () => {
    await writeFile(join(dir, 'package.json'), '{"theinference":{"typecheck":true}}');
    const error = await typeCheckSetting(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).message).toBe(
      `package.json's "theinference": { "typecheck": true } is not a setting: give "note" (type errors shown, not graded), "fail" (a type error fails the run) or "off".`,
    );
  });
});
