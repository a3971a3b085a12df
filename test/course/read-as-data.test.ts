// One file of a submission, read as data: a small regular file's bytes, and for anything else what it is, without
// following a link or waiting on a FIFO.
import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readAsData, readAsDataSync } from '../../src/course/read-as-data.ts';

let dir: string;
let server: Server;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-read-as-data-'));
  await writeFile(join(dir, 'plain.json'), '{}');
  await writeFile(join(dir, 'run.sh'), '#!/bin/sh');
  await chmod(join(dir, 'run.sh'), 0o755);
  await writeFile(join(dir, 'big.json'), 'x'.repeat(11));
  await symlink(join(dir, 'plain.json'), join(dir, 'link.json'));
  await symlink('/dev/zero', join(dir, 'zero.json'));
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
  // A device of /dev/null's numbers (mknod needs root, as CI runs this suite).
  execFileSync('mknod', [join(dir, 'device.json'), 'c', '1', '3']);
  server = createServer();
  await new Promise<void>((listening) => server.listen(join(dir, 'socket.json'), listening));
});
afterAll(async () => {
  await new Promise((closed) => server.close(closed));
  await rm(dir, { recursive: true, force: true });
});

it.each<[string, unknown]>([
  ['plain.json', { data: Buffer.from('{}'), executable: false }],
  ['run.sh', { data: Buffer.from('#!/bin/sh'), executable: true }],
  ['big.json', 'too large'],
  ['link.json', 'not regular'],
  ['zero.json', 'not regular'],
  ['fifo.json', 'not regular'],
  ['device.json', 'not regular'],
  ['socket.json', 'not regular'],
  ['missing.json', 'missing'],
  ['plain.json/below', 'missing'],
])('%s', async (name, read) => {
  expect(await readAsData(join(dir, name), 10)).toEqual(read);
  expect(readAsDataSync(join(dir, name), 10)).toEqual(read);
});
