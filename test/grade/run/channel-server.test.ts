// The channel between a program process and the grader, both ends real, over a unix socket: an ask is answered, a
// tell is heard and answered with nothing, and a line that is not a message ends the connection.
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ChannelLimit,
  type ChannelServer,
  type Json,
  listenChannel,
  MAX_CHANNEL_CONNECTIONS,
} from '../../../src/grade/run/channel-server.ts';
import { openChannel } from '../../../src/modes/channel.ts';

let dir: string;
let server: ChannelServer;
const heard: Json[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'theinference-channel-'));
  server = await listenChannel(join(dir, 'channel'));
  heard.length = 0;
  server.attach(
    async (message) => {
      heard.push(message);
      return { answered: message.op };
    },
    () => {},
  );
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

// What the grader writes back on a raw connection after `lines` are sent, within `ms`.
async function rawReplies(lines: string[], ms = 300): Promise<string> {
  const socket = connect(server.path);
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (text += chunk));
  await new Promise((ready) => socket.once('connect', ready));
  socket.write(lines.map((l) => `${l}\n`).join(''));
  await new Promise((r) => setTimeout(r, ms));
  socket.destroy();
  return text;
}

describe('the channel', () => {
  it('holds at most MAX_CHANNEL_CONNECTIONS open: the ones past it are closed as they come', async () => {
    const sockets = Array.from({ length: MAX_CHANNEL_CONNECTIONS + 12 }, () => connect(server.path));
    const closed = sockets.map((socket) => {
      socket.on('error', () => {});
      return new Promise<boolean>((done) => {
        socket.once('close', () => done(true));
        setTimeout(() => done(false), 1000);
      });
    });
    const open = (await Promise.all(closed)).filter((c) => !c).length;
    for (const socket of sockets) socket.destroy();
    expect(open).toBe(MAX_CHANNEL_CONNECTIONS);
  });

  it('answers an ask with its id, and hears a tell without answering it', async () => {
    const channel = await openChannel(server.path);
    await channel.tell({ op: 'calling', call: 1 });
    expect(await channel.ask({ op: 'next' })).toEqual({ answered: 'next', id: 2 });
    channel.close();
    expect(heard.map((m) => m.op)).toEqual(['calling', 'next']);
    expect(heard[0]).toMatchObject({ reply: false });
  });

  it('writes nothing back for a message that says reply: false, and a line for one that does not', async () => {
    const text = await rawReplies(['{"id":1,"op":"calling","reply":false}', '{"id":2,"op":"next"}']);
    expect(text).toBe('{"answered":"next","id":2}\n');
  });

  it('ends the connection at a line that is not a message with an id', async () => {
    const text = await rawReplies(['not json', '{"id":2,"op":"next"}']);
    expect(text).toBe('');
    expect(heard).toEqual([]);
  });

  it('ends every connection, and says so once, when the channel has carried more than its limit in all', async () => {
    const limited = await listenChannel(join(dir, 'limited'), 64 * 1024);
    const overflows: (ChannelLimit | undefined)[] = [];
    limited.attach(
      async () => ({ ok: true }),
      (limit) => overflows.push(limit),
    );
    const open = async () => {
      const socket = connect(limited.path).resume();
      await new Promise((ready) => socket.once('connect', ready));
      return socket;
    };
    const [first, second] = [await open(), await open()];
    const closed = Promise.all([first, second].map((s) => new Promise((gone) => s.once('close', gone))));
    // Each connection alone stays under the limit, in lines well under the line limit; together they pass it.
    const line = `${JSON.stringify({ id: 1, op: 'x', pad: 'y'.repeat(1000) })}\n`;
    first.write(line.repeat(40));
    second.write(line.repeat(40));
    await closed;
    expect(overflows).toEqual([{ bytes: 64 * 1024 }]);
    await limited.close();
  });

  // A trial's attack: lines of empty objects, each well under the line limit and the channel under its bytes, held
  // 17 times their size on the grader's heap until it ran out (a class's reports lost).
  it('ends every connection, and says so once, when its messages have held more JSON values than its limit in all', async () => {
    const limited = await listenChannel(join(dir, 'values'), 1024 * 1024, 1000);
    const overflows: (ChannelLimit | undefined)[] = [];
    const answered: unknown[] = [];
    limited.attach(
      async (message) => {
        answered.push(message.id);
        return { ok: true };
      },
      (limit) => overflows.push(limit),
    );
    const socket = connect(limited.path).resume();
    const closed = new Promise((gone) => socket.once('close', gone));
    // 303 values a line (the object, its id, the array and its 300): the fourth passes 1,000.
    const line = (id: number) => `${JSON.stringify({ id, pad: Array(300).fill({}) })}\n`;
    socket.write([1, 2, 3, 4, 5].map(line).join(''));
    await closed;
    expect(overflows).toEqual([{ values: 1000 }]);
    expect(answered).toEqual([1, 2, 3]);
    await limited.close();
  });

  // A trial's attack: asks whose answers (errors that repeat what was asked) the program never reads, each queued on
  // the grader's heap, 650 MB a process.
  it('ends every connection, and says so once, when a connection leaves more of its answers unread than its limit', async () => {
    const limited = await listenChannel(join(dir, 'unread'), 64 * 1024 * 1024, 1_000_000, 1024 * 1024);
    const overflows: (ChannelLimit | undefined)[] = [];
    let asked = 0;
    limited.attach(
      async (message) => {
        asked += 1;
        return { error: `no such request ${String(message.pad)}` };
      },
      (limit) => overflows.push(limit),
    );
    const socket = connect(limited.path).pause();
    // Its writes after the grader ended the connection fail: that is the point.
    socket.on('error', () => {});
    const closed = new Promise((gone) => socket.once('close', gone));
    const line = (id: number) => `${JSON.stringify({ id, op: 'x', pad: 'y'.repeat(100 * 1024) })}\n`;
    // 100 asks of 100 KB each, answered at their size: the kernel's buffers take a few, then 1 MB waits.
    socket.write(Array.from({ length: 100 }, (_, i) => line(i)).join(''));
    await closed;
    expect(overflows).toEqual([{ unread: 1024 * 1024 }]);
    expect(asked).toBeLessThan(100);
    await limited.close();
  });

  it('answers a program that reads as it asks, however much it asks in all', async () => {
    const limited = await listenChannel(join(dir, 'read'), 64 * 1024 * 1024, 1_000_000, 1024 * 1024);
    const overflows: (ChannelLimit | undefined)[] = [];
    limited.attach(
      async (message) => ({ echo: message.pad }),
      (limit) => overflows.push(limit),
    );
    const socket = connect(limited.path);
    let received = 0;
    socket.on('data', (chunk: Buffer) => (received += chunk.length));
    await new Promise((ready) => socket.once('connect', ready));
    const pad = 'y'.repeat(100 * 1024);
    for (let id = 0; id < 100; id += 1) {
      const before = received;
      socket.write(`${JSON.stringify({ id, pad })}\n`);
      while (received - before < pad.length) await new Promise((r) => setTimeout(r, 1));
    }
    socket.destroy();
    expect(overflows).toEqual([]);
    expect(received).toBeGreaterThan(100 * pad.length);
    await limited.close();
  });
});
