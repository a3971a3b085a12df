// Findings about what a branch returns: the method's ToolOutput with fields dropped, added, moved or replaced, a
// Promise where the output should be, nothing at all. A change that is the same whatever the method answered is
// one finding for every name it is seen on (a wrapper around the whole switch is one mistake), and it explains a
// failed call only when it turns the expected result into the one received. Pure.
import type { Fact } from './compare-probe.ts';
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import { ECHO, METHODS, methodOf } from '../../../course/dispatcher-contract.ts';
import { type ContentChange, type ResultChange, TOOL_NAME, type Trigger } from '../../../grade/judge/finding.ts';
import { type FindingSpec, factsByName, listNames, routedNames, shown, verb } from './finding-spec.ts';
import { isRecord, tagOf } from './read-observation.ts';
import { LONG_ANSWER_LENGTH } from '../long-answer.ts';
import { probes } from './probe-calls.ts';

type ResultFact = Extract<Fact, { type: 'result' }>;
// What a branch does to its method's output: a change that can be replayed on any output, or one seen only.
type Seen = { change?: ResultChange; kind: string; example: ResultFact };

export function resultSpecs(facts: Fact[]): FindingSpec[] {
  const specs: FindingSpec[] = [];
  for (const [name, own] of factsByName(facts)) {
    const results = own.filter((f): f is ResultFact => f.type === 'result');
    if (results.length === 0) continue;
    const seen = merge(results.map(describe), (key) => errorsKeep(name, own, key));
    const method = methodOf(name);
    const target = method === undefined ? 'echo' : `tools.${method}`;
    specs.push({
      signature: `result: ${seen.change === undefined ? `${target}: ${seen.kind}` : JSON.stringify(seen.change)}`,
      names: [name],
      rank: seen.change === undefined ? 9 : 1,
      text: (names) => words(seen, names),
      triggers: (names): Trigger[] => [seen.change === undefined ? { names } : { names, change: seen.change }],
    });
  }
  return withEcho(specs);
}

// Echo's output has only `content`: a change to every method's results that drops fields echo has none of is the
// same change as echo's without the drop (one wrapper around the whole switch), so echo joins that finding.
function withEcho(specs: FindingSpec[]): FindingSpec[] {
  const echo = specs.find((s) => s.names.includes(ECHO) && s.signature.startsWith('result: {'));
  if (echo === undefined) return specs;
  const change = JSON.parse(echo.signature.slice('result: '.length)) as ResultChange;
  // A field echo's result gains is the one the others have set (echo has no error to set it on).
  const { add: echoAdd, ...echoRest } = change;
  const same = specs.find((s) => {
    if (s === echo || !s.signature.startsWith('result: {')) return false;
    const other = JSON.parse(s.signature.slice('result: '.length)) as ResultChange;
    const { drop, dropOnSuccess: _, ...rest } = other;
    const kept = drop?.filter((k) => k === 'content') ?? [];
    const theirs = kept.length === 0 ? rest : { ...rest, drop: kept };
    const setByThem =
      echoAdd !== undefined &&
      rest.set !== undefined &&
      Object.entries(echoAdd).every(([k, v]) => jsonEqual(rest.set![k], v)) &&
      jsonEqual(echoRest, withoutSet(theirs));
    return jsonEqual(theirs, change) || setByThem;
  });
  return same === undefined ? specs : specs.map((s) => (s === echo ? { ...s, signature: same.signature } : s));
}

function withoutSet({ set: _, ...rest }: ResultChange): ResultChange {
  return rest;
}

// Whether every error the stand-in answered `name` with `key` in it came back with `key`: those returned unchanged
// (no fact of their own) and those changed otherwise. Only results that differ are facts, so the errors returned as
// they were are found among the probe calls: each one that neither threw, nor hung, nor reached another method.
function errorsKeep(name: string, own: Fact[], key: string): boolean {
  const answered = probes().filter(
    (p) =>
      p.tool === name &&
      p.answer.is_error === true &&
      key in p.answer &&
      !own.some((f) => f.probe === p && (f.type === 'threw' || f.type === 'pending' || f.type === 'route')),
  );
  return (
    answered.length > 0 &&
    answered.every((p) => {
      const changed = own.find((f): f is ResultFact => f.type === 'result' && f.probe === p);
      return changed === undefined || (isRecord(changed.printed) && key in changed.printed);
    })
  );
}

// One result against what the method answered (or, for echo, `{ content: input.text }`).
function describe(fact: ResultFact): Seen {
  const { want, printed, encoded } = fact;
  if (printed === undefined || printed === null) return { change: { replace: null }, kind: 'nothing', example: fact };
  if (!isRecord(printed)) return { kind: 'not an object', example: fact };
  const raw = isRecord(encoded) ? encoded : {};
  if (Object.keys(want).every((k) => tagOf(raw[k]) === 'undefined') && Object.keys(printed).length === 0) {
    return { change: { replace: {} }, kind: 'fields of a promise', example: fact };
  }
  const change: ResultChange = {};
  const drop = Object.keys(want).filter((k) => !(k in printed));
  // A field added whose value is the name called is the same field for every name (`tool: name`).
  const add = Object.fromEntries(
    Object.entries(printed)
      .filter(([k]) => !(k in want))
      .map(([k, v]) => [k, v === fact.probe.tool ? TOOL_NAME : v]),
  );
  const renamed = Object.keys(add).find((k) => !('content' in printed) && jsonEqual(add[k], want.content));
  if (renamed !== undefined) {
    change.rename = renamed;
    delete add[renamed];
    drop.splice(drop.indexOf('content'), 1);
  }
  if (drop.length > 0) change.drop = drop;
  if (Object.keys(add).length > 0) change.add = add;
  const differs = Object.keys(want).filter((k) => k in printed && !jsonEqual(printed[k], want[k]));
  if (differs.length === 0) return { change, kind: 'fields', example: fact };
  // A flag set whatever the method answered (is_error: false on an error too): a field set, replayable on any
  // output. Its value is said only where it is the same on every result (merge).
  const flags = differs.filter((k) => k !== 'content' && typeof printed[k] === 'boolean');
  if (flags.length === differs.length) {
    const set = Object.fromEntries(flags.map((k) => [k, printed[k]]));
    return { change: { ...change, set }, kind: 'fields', example: fact };
  }
  if (tagOf(raw.content) === 'promise')
    return { change: { ...change, set: { content: {} } }, kind: 'promise', example: fact };
  if (differs.length === 1 && differs[0] === 'content' && printed.content === '') {
    return { change: { ...change, set: { content: '' } }, kind: 'too late', example: fact };
  }
  const text = differs.length === 1 && differs[0] === 'content' ? contentChange(want, printed) : undefined;
  if (text !== undefined) return { change: { ...change, content: text }, kind: 'content', example: fact };
  return { kind: 'changed', example: fact };
}

// How the content of a result relates to its method's: trimmed, with text in front or after, or an error's text
// replaced by another (the error kept).
function contentChange(want: Record<string, unknown>, printed: Record<string, unknown>): ContentChange | undefined {
  const [w, r] = [want.content, printed.content];
  if (typeof w !== 'string' || typeof r !== 'string') return undefined;
  const errors = want.is_error === true ? { errors: true as const } : {};
  const how = (['trim', 'trimEnd', 'trimStart'] as const).find((h) => w !== r && w[h]() === r);
  if (how !== undefined) return { trim: how, ...errors };
  if (r.length < w.length && w.startsWith(r) && r !== '') return { cut: r.length, ...errors };
  // Text in front, after, or both (wrapped in tags): the method's own text kept whole inside.
  const at = w === '' ? -1 : r.lastIndexOf(w);
  if (at >= 0 && r !== w) {
    const [prefix, suffix] = [r.slice(0, at), r.slice(at + w.length)];
    return { ...(prefix === '' ? {} : { prefix }), ...(suffix === '' ? {} : { suffix }), ...errors };
  }
  if (want.is_error === true && printed.is_error === true) return { replaced: true, errors: true };
  return undefined;
}

// The changes seen for one name, as one: fields dropped anywhere are dropped, a field added or replaced counts
// only when it is the same everywhere; a change seen differently each time cannot be replayed.
function merge(all: Seen[], errorsKeep: (key: string) => boolean): Seen {
  const first = all[0]!;
  if (all.some((s) => s.change === undefined)) return all.find((s) => s.change === undefined)!;
  if (all.some((s) => s.kind !== first.kind && !(s.kind === 'fields' || first.kind === 'fields'))) {
    return { kind: 'changed', example: first.example };
  }
  const kind = all.find((s) => s.kind !== 'fields')?.kind ?? 'fields';
  if ('replace' in first.change!)
    return all.every((s) => jsonEqual(s.change, first.change)) ? first : { kind: 'changed', example: first.example };
  const dropped = [...new Set(all.flatMap((s) => s.change?.drop ?? []))].sort();
  // A field dropped from successes only: every error that had it kept it.
  const dropOnSuccess = dropped.filter(errorsKeep);
  const drop = dropped.filter((k) => !errorsKeep(k));
  const adds = all.map((s) => s.change?.add ?? {});
  const add = Object.fromEntries(
    Object.entries(Object.assign({}, ...adds) as Record<string, unknown>).filter(([k, v]) =>
      adds.every((a) => !(k in a) || jsonEqual(a[k], v)),
    ),
  );
  const texts = all.filter((s) => s.change?.content !== undefined).map((s) => s.change!.content!);
  const content = texts[0] === undefined ? undefined : mergeContent(texts, all.length);
  if (texts.length > 0 && content === undefined) return { kind: 'changed', example: first.example };
  const rename = all.find((s) => s.change?.rename !== undefined)?.change?.rename;
  const sets = all.flatMap((s) => (s.change?.set === undefined ? [] : [s.change.set]));
  const set = sets[0];
  if (set !== undefined && !sets.every((s) => jsonEqual(s, set))) return { kind: 'changed', example: first.example };
  // A field set on the errors and added to the successes, the same value: one field set on every result.
  for (const key of Object.keys(add)) if (set !== undefined && jsonEqual(set[key], add[key])) delete add[key];
  const change: ResultChange = {
    ...(drop.length > 0 ? { drop } : {}),
    ...(dropOnSuccess.length > 0 ? { dropOnSuccess } : {}),
    ...(Object.keys(add).length > 0 ? { add } : {}),
    ...(set === undefined ? {} : { set }),
    ...(rename === undefined ? {} : { rename }),
    ...(content === undefined ? {} : { content }),
  };
  return { change, kind, example: all.find((s) => s.kind === kind)!.example };
}

// One change of the content from each result changed so: the same everywhere, else none that can be replayed. It
// is about errors only when every result changed was an error's (the successes came back as they were).
function mergeContent(texts: ContentChange[], _results: number): ContentChange | undefined {
  const strip = ({ errors: _, ...rest }: ContentChange) => rest;
  if (!texts.every((t) => jsonEqual(strip(t), strip(texts[0]!)))) return undefined;
  return { ...strip(texts[0]!), ...(texts.every((t) => t.errors === true) ? { errors: true } : {}) };
}

function words(seen: Seen, names: string[]): string {
  const every = routedNames().every((n) => names.includes(n));
  const methodNames = Object.values(METHODS).flatMap((m) => m.names);
  const everyMethod = !every && methodNames.every((n) => names.includes(n)) && names.length === methodNames.length;
  const who = every ? 'every tool name' : everyMethod ? 'every tool name that calls a Tools method' : listNames(names);
  // "every tool name" takes a verb in the singular.
  const forms = every || everyMethod ? ['every'] : names;
  const methods = [...new Set(names.map((n) => methodOf(n) ?? ECHO))];
  const one = methods.length === 1 ? methods[0]! : undefined;
  const call = one === undefined ? 'the Tools method' : one === ECHO ? 'echo' : `tools.${one}`;
  const asIs = one === ECHO ? 'return { content: input.text }' : `return the ToolOutput of ${call}(…) as it is`;
  const change = seen.change ?? {};
  switch (seen.kind) {
    case 'nothing':
      return `execute returned nothing for ${who}: a \`return\` is missing in ${verb(forms, 'its branch', 'their branch')} (or the result was never returned)`;
    case 'fields of a promise': {
      // Several methods: said of any one of them, with tools.view as the example of the await.
      const [off, back, awaited] =
        one === undefined
          ? ["a Tools method's result", "the method's result", 'tools.view(…)']
          : [`${call}(…)`, `${call}(…)`, `${call}(…)`];
      const whose = who.startsWith('every ') ? `the result of ${who}` : `${who}'s result`;
      return `${whose} is {} (no \`content\`): a field read off ${off} without \`await\` is undefined (it returns a Promise); return ${back} itself, or read the fields of \`await ${awaited}\`. \`npm run typecheck\` flags it unless the value is typed \`any\`: the grader runs your code without type-checking it`;
    }
    case 'promise':
      return `the result of ${call} was not awaited: ${who} ${verb(forms, 'puts', 'put')} the Promise in \`content\`; return the ToolOutput of ${call}(…) itself`;
    case 'too late':
      return `${who} ${verb(forms, 'returns', 'return')} before ${call} has answered (\`content\` is still ""): its promise was not awaited (fire-and-forget, or a .then that stores the result too late); return or await it`;
    case 'not an object': {
      const what =
        typeof seen.example.printed === 'string' ? 'a string (the content alone?)' : `a ${typeof seen.example.printed}`;
      return `${who} ${verb(forms, 'returns', 'return')} ${what} where a ToolOutput object ({ content, is_error?, exit_code? }) is due: ${asIs}`;
    }
    case 'changed':
      return `${who} ${verb(forms, 'changes', 'change')} what ${call} returns (the grader's stand-in Tools answered ${shown(seen.example.want, 70)} and got back ${shown(seen.example.printed, 70)}): ${asIs}`;
  }
  const parts: string[] = [];
  if (change.content !== undefined) {
    parts.push(contentWords(change.content, who, forms, call, asIs, seen.example.want.content));
  }
  if (change.rename !== undefined) {
    parts.push(
      `${who}'s result has \`${change.rename}\` where a ToolOutput has \`content\`: ${one === ECHO ? 'return { content: input.text }' : `return { content: … } (the ToolOutput of ${call} as it is)`}`,
    );
  }
  // `return { content: out.content, is_error: false }`: is_error set and exit_code dropped, one sentence below.
  const flagged = change.set !== undefined && 'is_error' in change.set && !('content' in change.set);
  const dropsWithFlag =
    flagged && change.dropOnSuccess === undefined && jsonEqual(change.drop ?? ['exit_code'], ['exit_code']);
  if (!dropsWithFlag && (change.drop !== undefined || change.dropOnSuccess !== undefined)) {
    const drops = verb(forms, 'drops', 'drop');
    const [whole, success] = [change.drop, change.dropOnSuccess].map((k) => (k === undefined ? '' : listNames(k)));
    parts.push(
      success === ''
        ? `${who} ${drops} ${whole} from what ${call} returns (as \`return { content: out.content }\` does): ${asIs}`
        : whole === ''
          ? `${who} ${drops} ${success} from what ${call} returns on success (an error comes back whole): ${asIs}`
          : `${who} ${drops} ${whole} from what ${call} returns, and ${success} from a success: ${asIs}`,
    );
  }
  if (flagged) {
    const value = JSON.stringify(change.set!.is_error);
    const dropped = dropsWithFlag && change.drop !== undefined ? ' and drops `exit_code`' : '';
    parts.push(
      `${who} ${verb(forms, 'sets', 'set')} \`is_error: ${value}\` on every result${dropped}, whatever ${call} answered: an error comes back ${change.set!.is_error === false ? 'as a success' : 'flagged otherwise'} (as \`return { content: out.content, is_error: ${value} }\` does). Only the tool decides is_error: ${asIs}`,
    );
  }
  if (change.add !== undefined && jsonEqual(change.add, { is_error: false })) {
    const adds = every
      ? 'your dispatcher adds `is_error: false` to every result that has no is_error key'
      : `${who} ${verb(forms, 'adds', 'add')} \`is_error: false\` to a success that has no is_error key`;
    parts.push(
      `only bash sets is_error: ${adds}; a success from any other tool has none (drop the added \`is_error: false\`)`,
    );
  } else if (change.add !== undefined) {
    const named = Object.values(change.add).includes(TOOL_NAME) ? ' (NAME: the tool name it was called with)' : '';
    const added = shown(change.add, 50).replaceAll(JSON.stringify(TOOL_NAME), 'NAME');
    parts.push(`${who} ${verb(forms, 'adds', 'add')} ${added}${named} to what ${call} returns: ${asIs}`);
  }
  return parts.join('. Also: ');
}

// "execute changes what tools.bash returned": the change named, and what the stand-in's answer became.
function contentWords(
  text: ContentChange,
  who: string,
  names: string[],
  call: string,
  asIs: string,
  answered: unknown,
): string {
  const what = text.errors === true ? `the text of every error ${call} returns` : `what ${call} returns`;
  const how =
    text.cut !== undefined
      ? `${verb(names, 'cuts', 'cut')} ${what} to its first ${text.cut.toLocaleString('en-US')} characters (the grader's stand-in answered ${LONG_ANSWER_LENGTH.toLocaleString('en-US')}; the Tools cut their own output where it matters, and say how to read the rest)`
      : text.trim !== undefined
        ? `${verb(names, 'trims', 'trim')} ${what} (spaces and line breaks at ${trimmedEnds(text.trim, answered)} are lost)`
        : text.prefix !== undefined && text.suffix !== undefined
          ? `${verb(names, 'wraps', 'wrap')} ${what} in ${shown(text.prefix, 40)} … ${shown(text.suffix, 40)}`
          : text.prefix !== undefined
            ? `${verb(names, 'puts', 'put')} ${shown(text.prefix, 40)} in front of ${what}`
            : text.suffix !== undefined
              ? `${verb(names, 'adds', 'add')} ${shown(text.suffix, 40)} after ${what}`
              : `${verb(names, 'replaces', 'replace')} ${what} with ${verb(names, 'its', 'their')} own (is_error kept)`;
  return `execute changes what ${call} returned: ${who} ${how}. The model needs the tool's own words: ${asIs}`;
}

// The ends a trim was seen to cut: the stand-in's answers end in a line break and start with none, so `trim()`
// and `trimEnd()` look alike there, and only the end the answer had spaces at is claimed.
export function trimmedEnds(how: 'trim' | 'trimEnd' | 'trimStart', answered: unknown): string {
  const text = typeof answered === 'string' ? answered : ' ';
  const start = how !== 'trimEnd' && /^\s/.test(text);
  const end = how !== 'trimStart' && /\s$/.test(text);
  return start && end ? 'both ends' : start ? 'its start' : 'its end';
}
