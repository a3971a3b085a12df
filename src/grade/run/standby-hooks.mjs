// Module hooks of a warm standby (standby.ts registers them; plain JavaScript, since they run in Node's hooks
// thread, where tsx compiles nothing). While the standby warms, they resolve its relative warm specifiers (the
// course's modules) from the course directory, as the driver loads them, and its packages from the package, as the
// driver imports them; and they record every file outside node_modules that a module is loaded from (with a digest
// of its text, read before it is compiled) and which module imports which. When the work arrives, `refresh` reads
// those files again: each one that changed, and every module that imports one of them however indirectly, is
// stale, and from then on resolves to a fresh instance (`?reload=N`: a new URL is a new module) while every other
// module keeps the one it has. A module that imports only unchanged modules is itself unchanged, so no fresh
// module ever sees a stale one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

let state = { standby: '', anchor: '', warming: true, reload: 0 };
// Each course file loaded (its URL without a query): the digest of its text when it was read.
const digests = new Map();
// Each course file: the course files that import it.
const importers = new Map();
const stale = new Set();

// `standby`: the standby's own URL; `anchor`: the course directory's (ending in `/`), which the relative warm
// specifiers are resolved from. The one message, `refresh` (or `refresh-all`: everything loaded is stale), comes
// when the work has arrived.
export function initialize(data) {
  state = { ...state, standby: data.standby, anchor: data.anchor };
  data.port.on('message', (message) => {
    state.warming = false;
    data.port.postMessage(refresh(message === 'refresh-all'));
  });
}

export async function resolve(specifier, context, next) {
  const fromStandby = state.warming && context.parentURL === state.standby;
  const courseModule = fromStandby && /^\.\.?\//.test(specifier);
  const resolved = await next(specifier, courseModule ? { ...context, parentURL: state.anchor } : context);
  const url = plain(resolved.url);
  if (!isCourseFile(url)) return resolved;
  // The standby's own imports make no module an importer.
  const parent = fromStandby || context.parentURL === undefined ? undefined : plain(context.parentURL);
  if (parent !== undefined && isCourseFile(parent)) {
    const set = importers.get(url) ?? new Set();
    set.add(parent);
    importers.set(url, set);
  }
  return stale.has(url) ? { ...resolved, url: `${url}?reload=${state.reload}` } : resolved;
}

export async function load(url, context, next) {
  const file = plain(url);
  if (isCourseFile(file) && !digests.has(file)) digests.set(file, digestOf(file));
  return next(url, context);
}

// Marks what changed since it was loaded (everything, when `all`), and what imports it, stale.
function refresh(all) {
  const changed = [...digests].filter(([file, digest]) => all || digestOf(file) !== digest).map(([file]) => file);
  const queue = [...changed];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (stale.has(file)) continue;
    stale.add(file);
    digests.delete(file);
    queue.push(...(importers.get(file) ?? []));
  }
  if (stale.size > 0) state.reload += 1;
  return { stale: stale.size };
}

// A file that a save can change: any file outside the packages (node_modules), the course's or not.
function isCourseFile(url) {
  return url.startsWith('file:') && !url.split('/').includes('node_modules');
}

function plain(url) {
  const at = url.search(/[?#]/);
  return at === -1 ? url : url.slice(0, at);
}

// The file's text's digest; a file that is gone has none, so it differs from any.
function digestOf(url) {
  try {
    return createHash('sha256').update(readFileSync(fileURLToPath(url))).digest('hex');
  } catch {
    return undefined;
  }
}
