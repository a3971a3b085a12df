// Module hooks of a warm standby (standby.ts registers them; plain JavaScript, since they run in Node's hooks
// thread, where tsx compiles nothing). While the standby warms, they resolve its warm specifiers as program.ts
// would, and they record every file outside node_modules that a module is loaded from (with a digest of its text,
// read before it is compiled) and which module imports which. When the work arrives, `refresh` reads those files
// again: each one that changed, and every module that imports one of them however indirectly, is stale, and from
// then on resolves to a fresh instance (`?reload=N`: a new URL is a new module) while every other module keeps the
// one it has. A module that imports only unchanged modules is itself unchanged, so no fresh module ever sees a
// stale one.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `warmedProgram`: a warm module imported program.ts itself (given an instance of its own, `?warm`, since the
// instance the standby imports as the program must be evaluated then, as the main module, to run its main).
let state = { standby: '', anchor: '', warming: true, warmedProgram: false, reload: 0 };
// Each course file loaded (its URL without a query): the digest of its text when it was read.
const digests = new Map();
// Each course file: the course files that import it.
const importers = new Map();
const stale = new Set();

// `standby`: the standby's own URL; `anchor`: program.ts's, which the warm specifiers are resolved from. The one
// message, `refresh` (or `refresh-all`: everything loaded is stale), comes when the work has arrived.
export function initialize(data) {
  state = { ...state, standby: data.standby, anchor: data.anchor };
  data.port.on('message', (message) => {
    state.warming = false;
    data.port.postMessage(refresh(message === 'refresh-all' || state.warmedProgram));
  });
}

// A module the standby asks for with this query (only program.ts) is compiled by the loaders after these hooks
// (tsx), which keep the result, and stands as an empty module: nothing of it runs, and no module is recorded.
const COMPILE_ONLY = '?theinference-compile-only';

export async function resolve(specifier, context, next) {
  const fromStandby = state.warming && context.parentURL === state.standby;
  if (fromStandby && specifier.endsWith(COMPILE_ONLY)) {
    const resolved = await next(specifier.slice(0, -COMPILE_ONLY.length), context);
    return { ...resolved, url: `${plain(resolved.url)}${COMPILE_ONLY}`, shortCircuit: true };
  }
  const resolved = await next(specifier, fromStandby ? { ...context, parentURL: state.anchor } : context);
  const url = plain(resolved.url);
  if (!isCourseFile(url)) return resolved;
  if (state.warming && url === state.anchor) {
    state.warmedProgram = true;
    return { ...resolved, url: `${url}?warm` };
  }
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
  if (url.endsWith(COMPILE_ONLY)) {
    await next(url.slice(0, -COMPILE_ONLY.length), context);
    return { format: 'module', source: '', shortCircuit: true };
  }
  const file = plain(url);
  if (isCourseFile(file) && !digests.has(file)) digests.set(file, digestOf(file));
  return next(url, context);
}

// Marks what changed since it was loaded (everything, when `all`), and what imports it, stale.
function refresh(all) {
  const changed = [...digests].filter(([file, digest]) => all || digestOf(file) !== digest).map(([file]) => file);
  const queue = [...changed];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    // program.ts as the program is loaded only now, afresh (a warm module's was an instance of its own).
    if (stale.has(file) || file === state.anchor) continue;
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
