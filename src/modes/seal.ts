// What the driver shares with the code under test, sealed before that code loads. The student's modules run in the
// driver's process, so anything they can reach, they can change: a patched `JSON.stringify` or a listener on
// `process.stdin` let them read every case ahead and write the result line themselves
// (test/fixtures/hostile-loop-reads-stdin). Three things close that:
// - `sealLanguage` freezes the language's objects the driver works through (JSON, the prototypes of arrays,
//   strings, promises and iterators…) and makes their global names read-only, so none can be changed or swapped;
// - the driver reads its cases from fd 0 and writes its lines to fd 1 through functions taken here, at load, never
//   through `process.stdin`, `process.stdout` or a property of `fs` that code loaded later could replace;
// - so Node's own modules (streams, `fs`, `http`), which stay open, never carry a case or a result line.
// Hand-written: no package reads a pipe through functions captured at load, and freezing is a loop over a list.
import * as fs from 'node:fs';

const read = fs.read;
const writeSync = fs.writeSync;
const later = setTimeout;
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode;
const decode = TextDecoder.prototype.decode;
const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = Atomics.wait;

// How long a read or a write waits when the pipe is not ready (a pipe made non-blocking by code that touched
// process.stdin or process.stdout): from the first wait to the longest, doubling, so that an idle standby polls
// rarely.
const FIRST_RETRY_MS = 1;
const LAST_RETRY_MS = 50;

// The ECMAScript globals, made read-only and fixed on the global object, so that none can be replaced. Other
// globals (fetch, console, process…) stay as Node made them.
const LANGUAGE_GLOBALS = [
  'Object',
  'Function',
  'Array',
  'Number',
  'parseFloat',
  'parseInt',
  'Boolean',
  'String',
  'Symbol',
  'Date',
  'Promise',
  'RegExp',
  'Error',
  'AggregateError',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
  'JSON',
  'Math',
  'Intl',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Atomics',
  'Uint8Array',
  'Int8Array',
  'Uint16Array',
  'Int16Array',
  'Uint32Array',
  'Int32Array',
  'Float32Array',
  'Float64Array',
  'Uint8ClampedArray',
  'BigUint64Array',
  'BigInt64Array',
  'DataView',
  'Map',
  'BigInt',
  'Set',
  'WeakMap',
  'WeakSet',
  'Proxy',
  'Reflect',
  'WeakRef',
  'FinalizationRegistry',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'unescape',
  'isFinite',
  'isNaN',
  'globalThis',
];

// The language's objects the driver reads a case, builds a result and writes a line through: frozen, so that code
// loaded after cannot listen in on them (a patched JSON.parse, String.prototype.split or an iterator's next) or
// change what they give (a toJSON on Object.prototype). Error.prototype stays open: an Error subclass sets its own
// name. Node's --frozen-intrinsics freezes every one, but its util.inspect then shows every Error as `{}`, which
// would hide a student's own errors from them.
const iteratorProtos = (): object[] => {
  const generator = Object.getPrototypeOf(function* () {});
  const asyncGenerator = Object.getPrototypeOf(async function* () {});
  return [
    Object.getPrototypeOf([][Symbol.iterator]()),
    Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
    generator,
    generator.prototype,
    asyncGenerator,
    asyncGenerator.prototype,
    Object.getPrototypeOf(asyncGenerator.prototype),
    Object.getPrototypeOf(new Map()[Symbol.iterator]()),
    Object.getPrototypeOf(new Set()[Symbol.iterator]()),
    Object.getPrototypeOf(''[Symbol.iterator]()),
  ];
};
const SEALED = (): object[] => [
  JSON,
  Math,
  Reflect,
  Atomics,
  Object,
  Array,
  Promise,
  Function.prototype,
  Object.prototype,
  Array.prototype,
  String.prototype,
  Number.prototype,
  Boolean.prototype,
  BigInt.prototype,
  Symbol.prototype,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
  RegExp.prototype,
  Uint8Array.prototype,
  Object.getPrototypeOf(Uint8Array.prototype),
  ...iteratorProtos(),
];

export function sealLanguage(): void {
  for (const value of SEALED()) Object.freeze(value);
  for (const name of LANGUAGE_GLOBALS) {
    if (Object.getOwnPropertyDescriptor(globalThis, name)?.configurable === true) {
      Object.defineProperty(globalThis, name, { writable: false, configurable: false });
    }
  }
}

// Writes `text` whole to fd 1, waiting while the pipe is full.
export function writeOut(text: string): void {
  const bytes = encode.call(encoder, text);
  let sent = 0;
  let wait = FIRST_RETRY_MS;
  while (sent < bytes.length) {
    try {
      sent += writeSync(1, bytes, sent, bytes.length - sent);
      wait = FIRST_RETRY_MS;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      sleep(pause, 0, 0, wait);
      wait = Math.min(wait * 2, LAST_RETRY_MS);
    }
  }
}

// The next bytes of fd 0 (none at its end), waiting while the pipe is empty.
export function readIn(wait: number = FIRST_RETRY_MS): Promise<Uint8Array> {
  const buffer = new Uint8Array(65536);
  return new Promise((resolve, reject) => {
    read(0, buffer, 0, buffer.length, null, (error, count) => {
      if (error === null) resolve(buffer.subarray(0, count));
      else if (error.code !== 'EAGAIN') reject(error);
      else later(() => readIn(Math.min(wait * 2, LAST_RETRY_MS)).then(resolve, reject), wait);
    });
  });
}

// The lines of fd 0 until it ends (a last line without a line break included), after those of `first`: bytes
// already read from it (a standby's, src/grade/run/standby.ts).
export async function* linesIn(first?: Uint8Array): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for (let bytes = first ?? (await readIn()); ; bytes = await readIn()) {
    pending += decode.call(decoder, bytes, { stream: bytes.length > 0 });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
    if (bytes.length === 0) break;
  }
  if (pending !== '') yield pending;
}
