// A rejection nothing awaits, heard while a loop case runs in-process, is said (for the case to be judged as the
// crash it is in a program process), and the process's own listeners are back afterwards.
import { expect, test } from 'vitest';
import { hearRejections } from '../../../src/grade/audit/hear-rejections.ts';

test('says the first rejection left unheard, and gives back the value', async () => {
  const heard = await hearRejections(async () => {
    void Promise.reject(new Error('spawn /bin/sh ENOMEM'));
    void Promise.reject(new Error('a second one'));
    return 7;
  });
  expect(heard).toEqual({ value: 7, unheard: 'Error: spawn /bin/sh ENOMEM' });
});

test('says nothing when every promise was awaited', async () => {
  const heard = await hearRejections(async () => {
    await Promise.reject(new Error('caught')).catch(() => {});
    return 'ok';
  });
  expect(heard).toEqual({ value: 'ok', unheard: undefined });
});

test("puts the process's own listeners back, however f ends", async () => {
  const before = process.listeners('unhandledRejection');
  await expect(hearRejections(async () => Promise.reject(new Error('f threw')))).rejects.toThrow('f threw');
  expect(process.listeners('unhandledRejection')).toEqual(before);
});
