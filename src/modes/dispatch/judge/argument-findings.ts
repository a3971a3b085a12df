// Findings about the arguments a branch passes (and the text echo returns): per name, one finding naming the call
// the student wrote beside the contract's, what is wrong with it, and, apart from that, what an empty value, a
// value with spaces at its ends or the fallback key alone turn into. Pure.
import type { Fact } from './compare-probe.ts';
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import {
  argumentText,
  ECHO_KEY,
  KEY_KINDS,
  METHODS,
  methodOf,
  OPTIONAL_DEFAULTS,
} from '../../../course/dispatcher-contract.ts';
import type { Condition, Trigger } from '../../../grade/judge/finding.ts';
import { anyOf, conditionsOf } from './branch-findings.ts';
import { type FindingSpec, factsByName, listNames, shown, verb } from './finding-spec.ts';

type ArgFact = Extract<Fact, { type: 'arg' }>;
type Input = Record<string, unknown>;
type ThrewFact = Extract<Fact, { type: 'threw' }>;
// What is wrong with one argument: with the key sent (`sent`; `misread`: the name it was read under instead), or
// only when the key is empty, has spaces at its ends, or is left out for the key behind `??`.
type Problem = {
  fact: ArgFact;
  // Numbers that follow the number sent (108 became 107): a value the branch computes, said as a change.
  follows?: true;
  misread?: string;
  when:
    | 'sent'
    | 'preferred'
    | 'falsy'
    | 'edged'
    | 'dotted'
    | 'mistyped'
    | 'fallback'
    | 'shifted'
    | 'reordered'
    | 'shaped'
    | 'carried'
    | 'defaulted';
};

// What a branch computes from a key it is sent (`input.file_text + "\n"`, `input.insert_line - 1`): a value
// changed, trimmed or converted, not a key read in the wrong place nor a constant.
const COMPUTED = new Set(['changed', 'trimmed', 'converted']);

// The findings, and the throws they take in: a branch that computes something from a key and throws only when
// that key is left out or of another type (`input.file_text.endsWith` on a number) throws in that computation,
// before its method is called, so the throw is part of the same mistake and its message.
export function argumentSpecs(facts: Fact[]): { specs: ArgSpec[]; folded: Set<Fact> } {
  const specs: ArgSpec[] = [];
  const folded = new Set<Fact>();
  for (const [name, own] of factsByName(facts)) {
    const args = own.filter((f): f is ArgFact => f.type === 'arg');
    if (args.length === 0) continue;
    const method = methodOf(name);
    const sources = method === undefined ? [ECHO_KEY] : METHODS[method]!.args;
    const problems: Problem[] = [];
    const conditions = new Map<string, Condition[]>();
    const throws: ThrewFact[] = [];
    for (const index of [...new Set(args.map((f) => f.index))].sort()) {
      const list = args.filter((f) => f.index === index);
      const source = sources[index] ?? '';
      const via = typeof source === 'string' ? {} : { via: [...source] };
      const strong = list.filter((f) => f.weak !== true);
      // Echo's one "argument" is its text: each way it goes wrong is said (`String(input.text).trim()` is two).
      const found = method === undefined ? echoProblems(strong) : [problemOf(strong)].filter((p) => p !== undefined);
      // A required key left out, given a default in its place: the Tools answer a missing one with their own error.
      // Echo's text too: echo returns it as it is, so a default in its place changes what echo returns.
      const required = method === undefined ? [ECHO_KEY] : METHODS[method]!.required;
      const needed = (key: string) =>
        required.includes(key) ||
        (Array.isArray(source) && source.includes(key) && source.some((k) => required.includes(k)));
      // An optional key left out, given a default other than the one its method takes (`input.view_range ?? [1,
      // -1]`, `input.timeout ?? 30000`): the call does otherwise than the contract's.
      const ownDefault = (f: ArgFact) =>
        f.weak === true &&
        f.nothing !== true &&
        f.probe.vary.kind === 'required' &&
        !needed(f.key) &&
        f.got.kind === 'value' &&
        !jsonEqual(f.got.value, OPTIONAL_DEFAULTS[f.key]);
      const defaulted =
        list.find((f) => f.weak === true && needed(f.key) && f.key === absentKey(f)) ??
        (method === undefined ? undefined : list.find(ownDefault));
      if (found.length === 0 && defaulted !== undefined) found.push({ fact: defaulted, when: 'defaulted' });
      const problem = found[0];
      // What a call leaving the key out gets counts only where the branch computes from the key: the conversion
      // of nothing (NaN, "undefined") is what breaks such a call; any other default the Tools may take alike.
      // A value of the branch's own made from the key (`input.view_range.join('-')`) throws where the key is not
      // what that code expects: one computation.
      const made = found.some(
        (p) => p.when === 'sent' && p.fact.got.kind === 'value' && typeof p.fact.got.value === 'string',
      );
      const converts =
        made || found.some((p) => computed(p, strong, list)) || (found.length > 0 && list.some((f) => f.nothing));
      if (converts) {
        const key = problem!.fact.key;
        for (const f of own) {
          if (f.type !== 'threw' || !('key' in f.probe.vary) || f.probe.vary.key !== key) continue;
          const when = conditionsOf(f.probe);
          if (when === undefined) continue;
          throws.push(f);
          folded.add(f);
          conditions.set(JSON.stringify(when), when);
        }
      }
      for (const f of converts ? list : found[0]?.when === 'defaulted' ? [found[0].fact] : strong) {
        // The whole input goes in whatever it holds.
        // A key left out that moves another into its place breaks the calls that leave it out.
        const left = f.probe.vary.kind === 'absent' && f.probe.vary.key !== f.key ? f.probe.vary.key : undefined;
        const when =
          f.got.kind === 'input'
            ? []
            : left !== undefined
              ? [{ key: left, class: 'absent' as const }]
              : [{ key: f.key, class: f.class, ...via }];
        conditions.set(JSON.stringify(when), when);
      }
      // A key read in the wrong place breaks a call that sends it, whatever the right key holds.
      const wrong = problem?.misread ?? (problem?.fact.got.kind === 'key' ? problem.fact.got.key : undefined);
      if (wrong !== undefined) conditions.set(`read ${wrong}`, [{ key: wrong, class: 'present' }]);
      for (const p of found) problems.push(converts && p.fact.got.kind === 'value' ? { ...p, follows: true } : p);
    }
    if (problems.length === 0) continue;
    // Arguments that follow the order the keys were sent in: one mistake, whatever the method, and what it does
    // to a key left out is the same mistake.
    if (problems.some((p) => p.when === 'reordered')) {
      specs.push(reorderedSpec(name));
      continue;
    }
    specs.push(branchSpec(name, method, problems, throws, conditions));
  }
  return { specs: foldHabits(foldShared(specs)), folded };
}

// The finding of one branch's argument problems: its words (with a failing call's own values where that call shows
// them), where it applies, and the change it makes when it is the branch's one problem.
function branchSpec(
  name: string,
  method: string | undefined,
  problems: Problem[],
  throws: ThrewFact[],
  conditions: Map<string, Condition[]>,
): ArgSpec {
  const wordsOf = (input?: Input) =>
    method === undefined ? echoWords(problems, throws, input) : methodWords(method, problems, throws, input);
  const words = wordsOf();
  const habit = method === undefined || throws.length > 0 ? undefined : habitOf(problems);
  // A path's ./ stripped is one change whatever the branch, its throws (`.replace` on a number) with it.
  const dotted = problems.length === 1 && problems[0]!.when === 'dotted';
  const only =
    problems.length === 1 && (throws.length === 0 || dotted) && method !== undefined ? problems[0] : undefined;
  return {
    signature: `arguments: ${method ?? 'echo'}: ${words('·')}`,
    names: [name],
    rank: 8,
    text: (names) => words(listNames(names), names),
    caseText: (names, input) =>
      problems.some((p) => caseExample(p, input) !== undefined) ? wordsOf(input)(listNames(names), names) : undefined,
    triggers: (names): Trigger[] => [...conditions.values()].map((when) => ({ names, when })),
    ...(only === undefined ? {} : { change: changeOf(only), throws }),
    ...(habit === undefined ? {} : { habit: habit.kind, examples: habit.examples }),
  };
}

// Arguments that follow the order the keys were sent in (`...Object.values(input)`), for tool `name`.
function reorderedSpec(name: string): FindingSpec {
  return {
    signature: 'arguments: by the order of the keys',
    names: [name],
    rank: 8,
    text: (names) =>
      `with the same input keys sent in another order, ${listNames(names)} ${verb(names, 'passes', 'pass')} other arguments to ${verb(names, 'its Tools method', 'their Tools methods')}: the arguments follow the order of the input's keys (as \`...Object.values(input)\` does), and a key left out moves the next into its place. Take each by its key, as the contract does (${listNames([...new Set(names.map((n) => METHODS[methodOf(n) ?? '']?.call ?? n))]).replaceAll('`', '')})`,
    triggers: (names): Trigger[] => [{ names }],
  };
}

// One habit applied to every key (`{ path = '', … } = input`, `String(input.x || '')`): each problem of a branch a
// default put in place of a key left out, or a value of another type turned into a text. Its examples: the key,
// what was sent and what reached the method.
// `fallback`: the default is another key the call sent (`input.path ?? input.file_path`), `read` its name.
type Habit = {
  kind: 'default' | 'string' | 'fallback' | 'misread';
  examples: { key: string; sent: unknown; got: unknown; read?: string }[];
};

function habitOf(problems: Problem[]): Habit | undefined {
  // Keys read under other names only (Claude Code's `file_path` for `path`): one habit across branches.
  if (problems.every((p) => p.fact.got.kind === 'missing' && p.misread !== undefined && p.misread !== p.fact.key)) {
    return {
      kind: 'misread',
      examples: problems.map((p) => ({ key: p.fact.key, sent: undefined, got: undefined, read: p.misread! })),
    };
  }
  const examples: Habit['examples'] = [];
  let kind: Habit['kind'] = 'default';
  for (const p of problems) {
    const { got, key, probe } = p.fact;
    const read =
      got.kind === 'value'
        ? Object.keys(probe.input).find((k) => k !== key && jsonEqual(probe.input[k], got.value))
        : undefined;
    if (p.when === 'defaulted' && read !== undefined && (kind === 'fallback' || examples.length === 0)) {
      kind = 'fallback';
      examples.push({ key, sent: undefined, got: got.kind === 'value' ? got.value : undefined, read });
    } else if (kind === 'fallback') return undefined;
    else if (p.when === 'defaulted' && got.kind === 'value') examples.push({ key, sent: undefined, got: got.value });
    else if (p.when === 'mistyped' && got.kind === 'converted' && got.to === 'string') {
      kind = 'string';
      examples.push({ key, sent: probe.input[key], got: got.value });
    } else return undefined;
  }
  return { kind, examples };
}

// The branches of several methods sharing one habit: one finding listing where it applies.
function foldHabits(specs: ArgSpec[]): FindingSpec[] {
  const byHabit = new Map<string, ArgSpec[]>();
  for (const spec of specs)
    if (spec.habit !== undefined) byHabit.set(spec.habit, [...(byHabit.get(spec.habit) ?? []), spec]);
  const shared = [...byHabit.values()].filter((group) => new Set(group.map((g) => methodOf(g.names[0]!))).size > 1);
  if (shared.length === 0) return specs;
  const members = new Set(shared.flat());
  return [
    ...specs.filter((s) => !members.has(s)),
    ...shared.map((group): FindingSpec => {
      const examples = group.flatMap((g) => g.examples ?? []);
      const keys = [...new Set(examples.map((e) => `input.${e.key}`))];
      const defaults = [...new Set(examples.filter((e) => e.sent === undefined).map((e) => shown(e.got, 20)))];
      const typed = examples.find((e) => e.sent !== undefined);
      if (group[0]!.habit === 'misread') {
        const pairs = [...new Set(examples.map((e) => `input.${e.read} for input.${e.key}`))];
        const sent = [...new Set(examples.map((e) => `\`${e.key}\``))];
        return {
          signature: 'arguments: habit: misread',
          names: group.flatMap((g) => g.names),
          rank: 8,
          text: (names: string[]) =>
            `${listNames(names)} read other names for the contract's keys (${pairs.join(', ')}): the model sends ${listNames(sent.map((k) => k.slice(1, -1)))}, the names in docs/tools.md, so the keys read are undefined; read each key by the contract's name`,
          triggers: () => group.flatMap((g) => g.triggers(g.names)),
        };
      }
      if (group[0]!.habit === 'fallback') {
        const reads = [...new Set(examples.map((e) => `input.${e.key} ?? input.${e.read}`))];
        const firsts = [...new Set(examples.map((e) => `\`${e.key}\``))];
        return {
          signature: 'arguments: habit: fallback',
          names: group.flatMap((g) => g.names),
          rank: 8,
          text: (names: string[]) =>
            `${listNames(names)} read another key when the contract's is left out (${reads.join(', ')}): the contract reads only ${firsts.join(', ')}, so pass each key as the model sent it; the Tools answer a missing one with their own error, which tells the model the key to send`,
          triggers: () => group.flatMap((g) => g.triggers(g.names)),
        };
      }
      const what =
        group[0]!.habit === 'string'
          ? `turn ${keys.join(', ')} into text before their Tools methods see them (${shown(typed?.sent, 30)} became ${shown(typed?.got, 30)}${defaults.length > 0 ? `, and a key left out became ${defaults.join(' or ')}` : ''}), as \`String(input.x || '')\` does`
          : `pass a default in place of a key the model leaves out (${defaults.join(' or ')} for ${keys.join(', ')}), as \`{ path = '', … } = input\` does`;
      return {
        signature: `arguments: habit: ${group[0]!.habit}`,
        names: group.flatMap((g) => g.names),
        rank: 8,
        text: (names) =>
          `${listNames(names)} ${what}: pass each key as the model sent it; the Tools check every argument themselves and answer a missing or mistyped one with their own error`,
        triggers: () => group.flatMap((g) => g.triggers(g.names)),
      };
    }),
  ];
}

// `every tool name that takes input.path`, when the names are all of those, else the names.
function everyTaking(names: string[], key: string): string {
  const taking = Object.values(METHODS).flatMap((m) => (m.keys.includes(key) ? m.names : []));
  return taking.every((n) => names.includes(n))
    ? `the branches of every tool name that takes input.${key}`
    : listNames(names);
}

// A spec, and the change it is about when it is the one problem of its branch: a key's value changed the same way
// (`<sandbox>/{path}`), whatever the method; the throws of the code that changes it.
// `caseText`: the same words with the values of a failing call's input where that input shows the change the probe
// saw (its "1" became 1, where the probe's "108" became 108), undefined where it shows none.
export type ArgSpec = FindingSpec & {
  caseText?: (names: string[], input: Input) => string | undefined;
  change?: string | undefined;
  throws?: ThrewFact[];
  habit?: Habit['kind'];
  examples?: Habit['examples'];
};

// How a key's value was changed, with the value itself written `{key}`: the same in every branch that calls one
// helper on it (`safePath(input.path)`).
function changeOf(p: Problem): string | undefined {
  const { got, key } = p.fact;
  const want = p.fact.probe.input[key];
  if (p.when === 'dotted' && got.kind === 'changed') return `${key}: dotted: ${shown(want)} became ${shown(got.value)}`;
  if (p.when !== 'sent' || got.kind !== 'changed' || typeof got.value !== 'string' || typeof want !== 'string') {
    return undefined;
  }
  return `${key}: ${got.value.split(want).join(`{${key}}`)}`;
}

// The same change to a key in the branches of several methods is one mistake (one helper called in each), so one
// finding for all their names.
function foldShared(specs: ArgSpec[]): FindingSpec[] {
  const byChange = new Map<string, ArgSpec[]>();
  for (const spec of specs) {
    if (spec.change !== undefined) byChange.set(spec.change, [...(byChange.get(spec.change) ?? []), spec]);
  }
  const shared = [...byChange.values()].filter((group) => new Set(group.map((g) => methodOf(g.names[0]!))).size > 1);
  if (shared.length === 0) return specs;
  const members = new Set(shared.flat());
  return [
    ...specs.filter((s) => !members.has(s)),
    ...shared.map((group): FindingSpec => {
      const [key = '', template = ''] = group[0]!.change!.split(/: (.*)/s);
      if (template.startsWith('dotted: ')) return dottedShared(group, key, template.slice('dotted: '.length));
      const example = template.replaceAll(`{${key}}`, `probe-${key}`);
      return {
        signature: `arguments: shared change: ${group[0]!.change}`,
        names: group.flatMap((g) => g.names),
        rank: 8,
        text: (names) =>
          `${everyTaking(names, key)} change input.${key} before their Tools methods see it (${shown(example, 40)} for ${shown(`probe-${key}`, 40)}): pass it as the model sent it; the Tools check it themselves, and their messages say it as the model sent it`,
        triggers: () => group.flatMap((g) => g.triggers(g.names)),
      };
    }),
  ];
}

// One ./ stripped in the branches of several methods, with the throws of the code that strips it.
function dottedShared(group: ArgSpec[], key: string, how: string): FindingSpec {
  const throws = group.flatMap((g) => g.throws ?? []);
  const also =
    throws.length === 0
      ? ''
      : `. Also: ${throwWords(throws).replace('the same branch throws', 'the same branches throw')}, before the Tools method is called`;
  return {
    signature: `arguments: shared change: ${group[0]!.change}`,
    names: group.flatMap((g) => g.names),
    rank: 8,
    text: (names) =>
      `${everyTaking(names, key)} change an input.${key} starting with ./ before their Tools methods see it (${how}): pass it as the model sent it; the Tools take ./ as it is, and their messages echo the ${key} as sent${also}`,
    triggers: () => group.flatMap((g) => g.triggers(g.names)),
  };
}

// Whether the branch computes what it passes from the key: a value changed, trimmed or converted, or numbers that
// follow the number sent (108 became 107, 0 became -1), not one constant. One number sent and another received
// (108 became 108000) is computed too, unless a call sending no such number got the same one (a constant).
function computed(problem: Problem, strong: ArgFact[], all: ArgFact[] = strong): boolean {
  if (COMPUTED.has(problem.fact.got.kind)) return true;
  const { got, key, probe } = problem.fact;
  const sent = probe.input[key];
  if (got.kind !== 'value' || typeof sent !== 'number') return false;
  const values = strong.map((f) => (f.got.kind === 'value' ? JSON.stringify(f.got.value) : undefined));
  if (new Set(values.filter((v) => v !== undefined)).size > 1) return true;
  if (problem.when !== 'sent' || typeof got.value !== 'number' || got.value === sent) return false;
  const same = (f: ArgFact) => f.got.kind === 'value' && f.got.value === got.value;
  return !all.some((f) => same(f) && Number(f.probe.input[key]) !== sent);
}

// How a number received follows the number sent: `× 1000`, `- 1`; nothing when neither says it.
function relation(sent: unknown, got: unknown): string {
  if (typeof sent !== 'number' || typeof got !== 'number' || sent === 0 || got === sent) return '';
  const ratio = got / sent;
  if (Number.isInteger(ratio)) return `, × ${ratio}`;
  if (Number.isInteger(1 / ratio)) return `, ÷ ${1 / ratio}`;
  return got > sent ? `, + ${got - sent}` : `, - ${sent - got}`;
}

// Echo's text: what its plain text turns into, else each class of text that went wrong (empty, of another type,
// with spaces at its ends), one problem each.
function echoProblems(list: ArgFact[]): Problem[] {
  const first = problemOf(list);
  if (first === undefined || first.when === 'sent') return first === undefined ? [] : [first];
  const classes = ['falsy', 'mistyped', 'edged'] as const;
  return classes.flatMap((c): Problem[] => {
    const fact = list.find((f) => f.class === c);
    return fact === undefined ? [] : [{ fact, when: c }];
  });
}

// The key a probe call left out, if any.
function absentKey(f: ArgFact): string | undefined {
  return f.probe.vary.kind === 'absent' ? f.probe.vary.key : undefined;
}

function problemOf(list: ArgFact[]): Problem | undefined {
  const sent = list.find((f) => f.probe.vary.kind === 'full') ?? list.find((f) => f.probe.vary.kind === 'required');
  if (sent !== undefined) {
    const misread = list.find((f) => f.probe.vary.kind === 'misread')?.got;
    const decoy = sent.got.kind === 'missing' && misread?.kind === 'key' ? { misread: misread.key } : {};
    if (prefersFallback(sent, list)) return { fact: sent, when: 'preferred' };
    return { fact: sent, when: 'sent', ...decoy };
  }
  // Sent as in a call that went right, after other calls through the same execute: a state kept between calls.
  const after = list.find((f) => f.probe.vary.kind === 'after');
  if (after !== undefined) return { fact: after, when: 'carried' };
  const reordered = list.find((f) => f.probe.vary.kind === 'reordered');
  if (reordered !== undefined) return { fact: reordered, when: 'reordered' };
  const falsy = list.find((f) => f.class === 'falsy');
  if (falsy !== undefined) return { fact: falsy, when: 'falsy' };
  const shaped = list.find((f) => f.probe.vary.kind === 'shaped');
  if (shaped !== undefined) return { fact: shaped, when: 'shaped' };
  const mistyped = list.find((f) => f.class === 'mistyped');
  if (mistyped !== undefined) return { fact: mistyped, when: 'mistyped' };
  const edged = list.find((f) => f.class === 'edged');
  if (edged !== undefined) return { fact: edged, when: 'edged' };
  const dotted = list.find((f) => f.class === 'dotted');
  if (dotted !== undefined) return { fact: dotted, when: 'dotted' };
  const absent = list.find((f) => f.probe.vary.kind === 'absent');
  if (absent === undefined) return undefined;
  // The fallback behind `??` never read, or, for any other key left out, what went in its place.
  const left = absent.probe.vary.kind === 'absent' ? absent.probe.vary.key : '';
  const pair = METHODS[methodOf(absent.probe.tool) ?? '']?.args.find((a) => typeof a !== 'string' && a[0] === left);
  return { fact: absent, when: pair?.includes(absent.key) ? 'fallback' : 'shifted' };
}

// `input.new_str ?? input.insert_text`: with both keys sent the fallback went in, yet the first key alone (the
// probe sending only the required keys) reached the method fine, so both are read, in the wrong order.
function prefersFallback(sent: ArgFact, list: ArgFact[]): boolean {
  const pair = METHODS[methodOf(sent.probe.tool) ?? '']?.args.find((a) => typeof a !== 'string' && a[0] === sent.key);
  if (pair === undefined || sent.got.kind !== 'key' || sent.got.key !== pair[1]) return false;
  return !list.some((f) => f.probe.vary.kind === 'required');
}

// What reached a place, as code: `input.path`, `input`, `"x"`.
function expression(p: Problem): string {
  const { got, key } = p.fact;
  if (got.kind === 'input') return 'input';
  if (got.kind === 'missing') return p.misread === undefined ? 'undefined' : `input.${p.misread}`;
  if (got.kind === 'key') return `input.${got.key}`;
  if (got.kind === 'trimmed') return `input.${key}.${got.how === 'newlines' ? 'replace(/\\n+$/, "")' : `${got.how}()`}`;
  if (got.kind === 'changed' || p.follows === true) return `(input.${key}, changed)`;
  return shown(got.value, 40);
}

// `a timeout of 0`, `an empty insert_text ("")`.
function empty(key: string): string {
  return KEY_KINDS[key] === 'number' ? `an input.${key} of 0` : `an empty input.${key} ("")`;
}

// The sentence for a method's branch, given how its names read.
function methodWords(
  method: string,
  problems: Problem[],
  throws: ThrewFact[] = [],
  input?: Input,
): (names: string, list?: string[]) => string {
  const contract = METHODS[method]!;
  const sent = problems.filter((p) => p.when === 'sent');
  const parts: string[] = [];
  if (sent.length > 0) {
    const args = contract.args.map((source, k) => {
      const p = sent.find((q) => q.fact.index === k);
      return p === undefined ? argumentText(source) : expression(p);
    });
    while (args.at(-1) === 'undefined') args.pop();
    const whole = sent.some((p) => p.fact.got.kind === 'input');
    // Passing the input's fields one by one is the fix for every field the whole input left out.
    const shownReasons = whole ? sent.filter((p) => p.fact.got.kind !== 'missing') : sent;
    // Keys misread the same way are one reason: "the model sends `old_str` and `new_str`, in snake_case, not …".
    const misread = shownReasons.filter((p) => p.fact.got.kind === 'missing' && p.misread !== undefined);
    const others = shownReasons.filter((p) => !misread.includes(p));
    const reasons = [
      ...new Set([...(misread.length > 0 ? [misreadReason(misread)] : []), ...others.map((p) => reason(p, method))]),
    ];
    parts.push(
      `{names} {calls} tools.${method}(${args.join(', ')}), where the contract calls ${contract.call}: ${reasons.join('; ')}`,
    );
  }
  for (const p of problems.filter((q) => q.when !== 'sent'))
    parts.push(otherWords(p, `tools.${method}`, method, input));
  if (throws.length > 0) {
    parts.push(
      `${throwWords(throws)}, before tools.${method} is called: tools.${method} answers such a value with its own error, so pass it on as it is`,
    );
  }
  return (names, list = ['']) =>
    parts
      .map((part) =>
        part
          .replace('{names}', names)
          .replace('{calls}', verb(list, 'calls', 'call'))
          .replace('{reads}', verb(list, 'reads', 'read'))
          .replace('{turns}', verb(list, 'turns', 'turn'))
          .replace('{passes}', verb(list, 'passes', 'pass'))
          .replace('{changes}', verb(list, 'changes', 'change')),
      )
      .join('. Also: ');
}

function reason(p: Problem, method: string): string {
  const { got, key } = p.fact;
  const keys = METHODS[method]!.keys;
  const fallback = METHODS[method]!.args.find((a) => typeof a !== 'string' && a.includes(key));
  if (got.kind === 'key' && fallback !== undefined && typeof fallback !== 'string' && fallback.includes(got.key)) {
    return `current models send the text as \`${fallback[0]}\` (\`${fallback[1]}\` is Anthropic's name for it): pass ${argumentText(fallback)}`;
  }
  if (got.kind === 'key' && keys.includes(got.key)) return 'its arguments are out of order';
  if (got.kind === 'key') return `input.${got.key} goes where input.${key} goes`;
  if (got.kind === 'missing') return `input.${key} never reaches it`;
  if (got.kind === 'input')
    return `the whole input object goes where input.${key} goes: pass the input's fields one by one`;
  const want = shown(p.fact.probe.input[key], 40);
  if (got.kind === 'changed' && got.value === JSON.stringify(p.fact.probe.input[key]))
    return `input.${key} reaches it as JSON text (${shown(got.value, 40)} for ${want}): pass it as the model sent it`;
  if (got.kind === 'changed' || (got.kind === 'value' && p.follows === true)) {
    const how = relation(p.fact.probe.input[key], got.value);
    // The contract's timeout is in milliseconds; a branch multiplying it by 1000 took it for seconds.
    const unit = key === 'timeout' && how === ', × 1000' ? ' (it is already milliseconds)' : '';
    return `input.${key} reaches it changed (${shown(got.value, 40)} for ${want}${how}): pass it as the model sent it${unit}`;
  }
  if (got.kind === 'trimmed') return `input.${key} reaches it trimmed: pass it as the model sent it`;
  return `where input.${key} goes it passes ${shown(got.value, 40)}`;
}

// Keys read under other names: "the model sends `old_str`, in snake_case, not `oldStr`".
function misreadReason(problems: Problem[]): string {
  const camel = (key: string) => key.replace(/_(\w)/g, (_, c: string) => c.toUpperCase());
  const snake = problems.every((p) => p.misread === camel(p.fact.key) && p.misread !== p.fact.key);
  const sent = listNames(problems.map((p) => p.fact.key));
  const read = listNames(problems.map((p) => p.misread ?? ''));
  return `the model sends ${sent}${snake ? ', in snake_case' : ''}, not ${read}`;
}

// An empty value turned into something else, a value trimmed, the key behind `??` never read.
function otherWords(p: Problem, target: string, method?: string, input?: Input): string {
  const { got, key } = p.fact;
  if (p.when === 'fallback') {
    const source = METHODS[method ?? '']?.args.find((a) => typeof a !== 'string' && a.includes(key));
    const [first, second] = typeof source === 'string' || source === undefined ? [key, key] : source;
    return `{names} {reads} only input.${first}: when the model sends the text as \`${second}\` (Anthropic's name for it), ${target} gets nothing. Pass ${source === undefined ? `input.${key}` : argumentText(source)}`;
  }
  if (p.when === 'preferred') {
    const [first, second] = [key, got.kind === 'key' ? got.key : ''];
    return `{names} {reads} input.${second} before input.${first}: when the model sends both, ${target} gets input.${second}, though \`${first}\` is the text current models mean. Pass input.${first} ?? input.${second}`;
  }
  if (p.when === 'shifted') {
    const left = p.fact.probe.vary.kind === 'absent' ? p.fact.probe.vary.key : '';
    const seen = got.kind === 'missing' ? 'nothing' : expression(p);
    return `when input.${left} is left out, ${target} gets ${seen} where input.${key} goes: pass each argument by its key, as the contract does (${METHODS[method ?? '']?.call ?? target})`;
  }
  if (p.when === 'carried') {
    const sent = shown(p.fact.probe.input[key], 40);
    const earlier = (p.fact.probe.first ?? []).map((c) => `${c.tool} ${shown(c.input, 40)}`).join(', then ');
    return `{names} {changes} input.${key} after earlier calls through the same execute (${earlier}): ${sent} reached ${target} as ${'value' in got ? shown(got.value, 60) : expression(p)}. Each call must reach ${target} as the model sent it: keep no state from one call to the next`;
  }
  if (p.when === 'shaped') {
    const sent = shown(p.fact.probe.input[key], 20);
    return `{names} {changes} input.${key} before ${target} sees it (${sent} became ${'value' in got ? shown(got.value, 20) : expression(p)}): pass it as the model sent it; ${target} checks it and answers one it cannot take with its own error`;
  }
  const pair = METHODS[method ?? '']?.args.find((a) => typeof a !== 'string' && a.includes(key));
  if (p.when === 'defaulted' && pair !== undefined && typeof pair !== 'string') {
    const keys = pair.map((k) => `input.${k}`).join(' and ');
    return `when ${keys} are both left out, {names} {passes} ${expression(p)} in their place: ${target} answers a missing text with its own error, so pass ${argumentText(pair)} as the model sent it, with no default`;
  }
  // The value of another key the call sent (Claude Code's `file_path`): a fallback to a name of another tool's.
  const other =
    p.when === 'defaulted' && got.kind === 'value'
      ? Object.keys(p.fact.probe.input).find((k) => k !== key && jsonEqual(p.fact.probe.input[k], got.value))
      : undefined;
  if (other !== undefined) {
    return `when input.${key} is left out, {names} {reads} input.${other} in its place: the contract reads only \`${key}\` (\`${other}\` is another tool's name for it), so pass input.${key} as the model sent it; ${target} answers a missing ${key} with its own error, which tells the model the key to send`;
  }
  if (p.when === 'defaulted' && !(METHODS[method ?? '']?.required.includes(key) ?? true)) {
    const own = key in OPTIONAL_DEFAULTS ? shown(OPTIONAL_DEFAULTS[key]) : undefined;
    const takes =
      own === undefined ? `${target} takes a missing ${key} otherwise` : `${target} takes a missing ${key} as ${own}`;
    return `when input.${key} is left out, {names} {passes} ${expression(p)} in its place: ${takes}, so pass input.${key} as the model sent it, with no default`;
  }
  if (p.when === 'defaulted') {
    return `when input.${key} is left out, {names} {passes} ${expression(p)} in its place: ${target} answers a missing ${key} with its own error, so pass input.${key} as the model sent it, with no default`;
  }
  if (p.when === 'mistyped') {
    const seen = exampleOf(p, input);
    const sent = shown(seen.sent, 20);
    const how =
      got.kind === 'converted'
        ? `{turns} input.${key} into ${Array.isArray(got.value) ? 'numbers' : `a ${got.to}`} (${sent} became ${shown(seen.got, 20)})`
        : `{changes} an input.${key} of the wrong type (${sent} became ${expression(p)})`;
    return `{names} ${how} before ${target} sees it: pass it as the model sent it; ${target} checks its type and answers a wrong one with its own error`;
  }
  if (p.when === 'dotted') {
    const sent = shown(p.fact.probe.input[key], 40);
    return `{names} {changes} an input.${key} starting with ./ before ${target} sees it (${sent} became ${'value' in got ? shown(got.value, 40) : expression(p)}): pass it as the model sent it; ${target} takes ./ as it is, and its messages echo the ${key} as sent`;
  }
  if (p.when === 'edged') {
    return `${target} gets input.${key} trimmed: pass it as the model sent it, spaces and line breaks included`;
  }
  const what = empty(key);
  if (got.kind === 'key') {
    const source = METHODS[method ?? '']?.args.find((a) => typeof a !== 'string' && a.includes(key));
    const fix =
      source === undefined || typeof source === 'string' ? `pass input.${key} as it is` : `use ${argumentText(source)}`;
    return `\`input.${key} || input.${got.key}\` treats ${what} as missing: \`||\` falls back on "" and 0; ${fix}, which falls back only when input.${key} is left out`;
  }
  if (got.kind === 'missing') {
    return `${what} never reaches ${target}: something in its branch treats it as missing (\`||\`, or a check like \`if (!input.${key})\`); pass it as it is`;
  }
  const into = got.kind === 'value' || got.kind === 'changed' ? shown(got.value, 40) : expression(p);
  return `\`input.${key} || ${into}\` turns ${what} into ${into}: \`||\` treats "" and 0 as missing; pass input.${key} as it is (\`??\` falls back only when it is left out)`;
}

// The throws a computation on a key makes: `the same branch throws (TypeError: …) when input.file_text is not a
// string or is left out`.
function throwWords(throws: ThrewFact[]): string {
  return `the same branch throws (${throws[0]!.message}) when ${anyOf(throws.map((f) => conditionsOf(f.probe) ?? []))}`;
}

// Echo's one "argument" is the text it returns.
function echoWords(problems: Problem[], throws: ThrewFact[], input?: Input): (names: string) => string {
  const parts = problems.map((p): string => {
    const { got } = p.fact;
    if (p.when === 'edged' && got.kind === 'trimmed') {
      const how = {
        trim: 'trims',
        trimEnd: 'trims the end of',
        trimStart: 'trims the start of',
        newlines: 'strips the line breaks at the end of',
      }[got.how];
      return `echo ${how} its text: return { content: input.text } as it is, spaces and line breaks included`;
    }
    if (p.when === 'mistyped' && got.kind === 'converted') {
      const seen = exampleOf(p, input);
      return `echo turns input.text into a ${got.to} (${shown(seen.sent, 20)} became ${shown(seen.got, 20)}): return { content: input.text } as the model sent it, whatever its type`;
    }
    if (got.kind === 'changed' && got.value === JSON.stringify(p.fact.probe.input[ECHO_KEY])) {
      return `echo returns the JSON text of input.text (${shown(got.value, 40)} for ${shown(p.fact.probe.input[ECHO_KEY], 40)}): return { content: input.text } as it is`;
    }
    if (p.when === 'falsy' && got.kind === 'value') {
      return `\`input.text || ${shown(got.value, 40)}\` turns an empty text into ${shown(got.value, 40)}: return { content: input.text } as it is`;
    }
    if (p.when === 'defaulted' && got.kind === 'value') {
      return `when input.text is left out, echo returns ${shown(got.value, 40)} as its content: return { content: input.text } as it is, with no default (its content is then nothing, as the model sent)`;
    }
    if (got.kind === 'input')
      return 'echo returned the whole input as its content: it must return { content: input.text }';
    if (got.kind === 'missing' && p.misread !== undefined) {
      return `echo reads input.${p.misread}, but the model sends \`text\`: return { content: input.text }`;
    }
    return `echo's content is ${expression(p)} where the contract returns input.text: return { content: input.text }`;
  });
  if (throws.length > 0) parts.push(`${throwWords(throws)}: return input.text as it is, whatever its type`);
  return () => parts.join('. Also: ');
}

// What a problem's words quote as sent and received: the failing call's own value and what the branch makes of it,
// where that call shows the change; else the probe's.
function exampleOf(p: Problem, input: Input | undefined): { sent: unknown; got: unknown } {
  const own = input === undefined ? undefined : caseExample(p, input);
  if (own !== undefined) return own;
  const { got, key, probe } = p.fact;
  return { sent: probe.input[key], got: 'value' in got ? got.value : undefined };
}

// A value of another type converted (`Number(input.insert_line)`, `String(input.text)`): the call's own value of
// the probe's type, converted the way the probe's was, when that changes it. Undefined for any other problem.
function caseExample(p: Problem, input: Input): { sent: unknown; got: unknown } | undefined {
  const { got, key, probe } = p.fact;
  if (p.when !== 'mistyped' || got.kind !== 'converted') return undefined;
  const one = (v: unknown): unknown => (got.to === 'number' ? Number(v) : String(v));
  const convert = (v: unknown): unknown => (Array.isArray(v) ? v.map(one) : one(v));
  const [sent, probed] = [input[key], probe.input[key]];
  const alike = typeof sent === typeof probed && Array.isArray(sent) === Array.isArray(probed);
  if (sent === undefined || !alike || !jsonEqual(convert(probed), got.value)) return undefined;
  const made = convert(sent);
  const numbers = [made].flat().every((v) => typeof v !== 'number' || Number.isFinite(v));
  return numbers && !jsonEqual(made, sent) ? { sent, got: made } : undefined;
}
