// The grader's side of a program process's channel (src/modes/channel.ts): a unix socket it listens on in a
// directory of its own, bound into the sandbox, where the program asks and the grader answers, one JSON object a
// line. What is asked goes to the stage's mode (its serve aspect, e.g. src/modes/loop/serve.ts), which keeps the
// batch, answers one thing at a time and makes the case's result lines from what it observed; nothing the program
// process holds or prints is a result. A line past MAX_RESULT_LINE_BYTES stops the process, as such a line on stdout
// would, and so does a channel that has carried more than MAX_CHANNEL_BYTES in all (every connection counted), or
// left more than MAX_CHANNEL_UNREAD_BYTES of answers unread: what the grader parses, keeps and queues for one program
// is bounded, in a class too, where one loop serves every submission.
// A line that is not a JSON object with an id ends that connection.
import { createServer, type Server, type Socket } from 'node:net';
import { jsonValues } from '../../modes/kit.ts';
import { LineSplitter } from './line-splitter.ts';
import { MAX_RESULT_LINE_BYTES } from './program-machine.ts';

export type Json = Record<string, unknown>;

// What one program process may send over its channel in all. A batch of the course's largest loop cases sends about
// 13 MB (delegate-task's, every request's whole conversation); this is twenty times that.
export const MAX_CHANNEL_BYTES = 256 * 1024 * 1024;

// The JSON values the messages of one program process may hold in all. A byte bound alone is not one on the
// grader's heap: `{}` is 3 bytes of text and about 50 of heap, so a line of empty objects holds 17 times its size. A
// whole stage's messages hold under 20,000 (compact-context's, the most, every process together); this is fifty
// times that.
export const MAX_CHANNEL_VALUES = 1_000_000;

// The bytes of the grader's answers one connection may leave unread. The driver reads each answer before it asks
// again, and the largest is under 1 MB (a turn of the course's largest case, 660 KB in all); a program that asks and
// never reads (a trial's sent 7 MB lines whose error answers repeat them, twice their size) would have the grader
// queue every answer on its heap, 650 MB a process.
export const MAX_CHANNEL_UNREAD_BYTES = 16 * 1024 * 1024;

// Which limit a channel passed: its bytes in all, the JSON values of its messages in all, or the answers one
// connection left unread.
export type ChannelLimit = { bytes: number } | { values: number } | { unread: number };

// The connections one channel holds open at once: the driver opens one. Each is a file descriptor of the grader's,
// so a program opening thousands (a trial's held 30,000) would run the grader, and a class with it, out of them;
// past this, a new connection is closed as it comes.
export const MAX_CHANNEL_CONNECTIONS = 8;

// What a mode's serve aspect gives for one program process: given the process's cases (the JSON lines the driver
// would read on stdin) and `emit`, which hands the grader's own line (a result, progress, the probe's observation)
// to the process's supervision, the answer to each message the program sends.
export type ModeServe = {
  open: (cases: string[], emit: (line: string) => void) => (message: Json) => Promise<Json>;
};

export type ChannelServer = {
  path: string;
  // Starts answering with `answer`; `overflow` hears a line past the limit (then the connection ends), or the
  // channel past one of its limits in all (then every connection ends).
  attach: (answer: (message: Json) => Promise<Json>, overflow: (limit?: ChannelLimit) => void) => void;
  close: () => Promise<void>;
};

// Listens at `path` (a socket file the caller's directory holds, removed with it); `maxBytes` and `maxValues`: what
// the channel may carry in all; `maxUnread`: what of its answers a connection may leave unread.
export async function listenChannel(
  path: string,
  maxBytes = MAX_CHANNEL_BYTES,
  maxValues = MAX_CHANNEL_VALUES,
  maxUnread = MAX_CHANNEL_UNREAD_BYTES,
): Promise<ChannelServer> {
  let answer: ((message: Json) => Promise<Json>) | undefined;
  let overflowed: (limit?: ChannelLimit) => void = () => {};
  // Every byte received, and every JSON value parsed, over every connection.
  let received = 0;
  let values = 0;
  const passed = (limit: ChannelLimit): void => {
    overflowed(limit);
    for (const open of sockets) open.destroy();
  };
  // What arrived before the mode attached (a standby's connection opens before its work does).
  const early: Array<() => void> = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const splitter = new LineSplitter(MAX_RESULT_LINE_BYTES);
    const take = (text: string): void => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        message = undefined;
      }
      values += jsonValues(message);
      if (values > maxValues) return passed({ values: maxValues });
      if (typeof message !== 'object' || message === null || Array.isArray(message) || !('id' in message)) {
        socket.destroy();
        return;
      }
      const { id } = message as Json;
      // A message told without waiting (Channel.tell, `reply: false`: a call about to be made) is answered with
      // nothing: the answer would be written, read and parsed for no one, once a call (about 30 ms of a watch save).
      const silent = (message as Json).reply === false;
      const reply = (out: Json): void => {
        if (silent || socket.destroyed) return;
        socket.write(`${JSON.stringify({ ...out, id })}\n`);
        // What the socket could not hand to the kernel waits on the grader's heap until the program reads.
        if (socket.writableLength > maxUnread) passed({ unread: maxUnread });
      };
      const run = (): void =>
        void answer!(message as Json).then(reply, (error: unknown) => reply({ error: String(error) }));
      if (answer === undefined) early.push(run);
      else run();
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) return passed({ bytes: maxBytes });
      const { lines, overflow } = splitter.push(chunk);
      // A line that ended the connection ends it for the lines after it too, in the same chunk or not.
      for (const line of lines) if (!socket.destroyed) take(line);
      if (overflow) {
        overflowed();
        socket.destroy();
      }
    });
  });
  server.maxConnections = MAX_CHANNEL_CONNECTIONS;
  await new Promise<void>((listening, failed) => server.once('error', failed).listen(path, listening));
  return {
    path,
    attach: (given, heard) => {
      answer = given;
      overflowed = heard;
      for (const run of early.splice(0)) run();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((closed) => server.close(closed));
    },
  };
}
