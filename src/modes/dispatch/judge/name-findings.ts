// Findings about where a name goes: a name of the contract that reaches no method or the wrong one, names outside
// the contract that reach a method or are not answered `unknown tool: NAME`. Pure.
import type { Fact } from './compare-probe.ts';
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import {
  DEFAULT_PROBE_NAME,
  ECHO,
  METHODS,
  methodOf,
  type NameClass,
  nameClass,
  unknownAnswer,
} from '../../../course/dispatcher-contract.ts';
import { type FindingSpec, factsByName, listNames, shown, substitute, verb } from './finding-spec.ts';
import type { Probe } from './probe-calls.ts';

type Route = Extract<Fact, { type: 'route' }>;
type Unknown = Extract<Fact, { type: 'unknown' }>;

// What the default branch does with a name outside the contract, as the probe saw it for DEFAULT_PROBE_NAME, with
// that name written `<name>`; undefined when it answers as the contract says.
function defaultOf(facts: Fact[]): Unknown | undefined {
  return facts.find((f): f is Unknown => f.type === 'unknown' && f.probe.tool === DEFAULT_PROBE_NAME);
}

// Whether a name got what the default branch gives every name outside the contract (`base`: what it gave
// DEFAULT_PROBE_NAME, when that was not the contract's answer).
export function likeDefault(
  fact: { probe: Probe; reached: string[]; printed: unknown; threw?: string },
  base?: { printed: unknown; threw?: string },
): boolean {
  const name = fact.probe.tool;
  if (fact.reached.length > 0) return false;
  if (base === undefined) return fact.threw === undefined && jsonEqual(fact.printed, unknownAnswer(name));
  const as = (v: unknown) => substitute(v, DEFAULT_PROBE_NAME, name);
  return fact.threw === as(base.threw) && jsonEqual(fact.printed, as(base.printed));
}

export function routeSpecs(facts: Fact[], probed: Map<string, number>): FindingSpec[] {
  const base = defaultOf(facts);
  const specs: FindingSpec[] = [];
  for (const [name, own] of factsByName(facts)) {
    const routes = own.filter((f): f is Route => f.type === 'route');
    if (routes.length === 0 || routes.length !== probed.get(name)) continue;
    const reached = routes[0]!.reached[0];
    const method = methodOf(name);
    if (reached === undefined) {
      // Nothing called and no sign of the default branch: a stale Tools kept from another case, say. No finding.
      if (!routes.every((r) => likeDefault(r, base))) continue;
      specs.push(notWired(name, method, base?.threw !== undefined));
    } else if (routes.every((r) => r.reached[0] === reached)) {
      specs.push(wrongMethod(name, method, reached));
    }
  }
  return specs;
}

function notWired(name: string, method: string | undefined, throws: boolean): FindingSpec {
  const falls = throws ? ' (now it falls into your default branch, which throws)' : '';
  return {
    signature: `not wired: ${method ?? name}`,
    names: [name],
    rank: 2,
    text: (names) => {
      if (method === undefined) return `the name \`${ECHO}\` is not wired${falls}: return { content: input.text }`;
      const all = METHODS[method]!.names;
      if (all.length === 1) return `the name \`${name}\` is not wired${falls}: route it to tools.${method}`;
      if (names.length === all.length) {
        return `neither ${listNames(names).replace(' and ', ' nor ')} is wired${falls}: route both to tools.${method}`;
      }
      return `the alias ${listNames(names)} is not wired${falls}: route it to tools.${method}`;
    },
    triggers: (names) => [{ names }],
  };
}

function wrongMethod(name: string, method: string | undefined, reached: string): FindingSpec {
  return {
    signature: `routed: ${method ?? name} to ${reached}`,
    names: [name],
    rank: 2,
    text: (names) => {
      const reach = verb(names, 'reaches', 'reach');
      if (method === undefined) {
        return `${listNames(names)} ${reach} tools.${reached}: echo calls no tool, it returns { content: input.text }`;
      }
      const right = METHODS[method]!.names.filter((n) => !names.includes(n));
      const as = right.length === 0 ? '' : ` (as ${listNames(right)} ${verb(right, 'does', 'do')})`;
      return `${listNames(names)} ${reach} tools.${reached}, not tools.${method}: route ${verb(names, 'it', 'them')} to tools.${method}${as}`;
    },
    triggers: (names) => [{ names }],
  };
}

// Names outside the contract: what the default branch does wrong is one finding; a class of names that reaches a
// method (or Object.prototype) instead is another.
export function unknownSpecs(facts: Fact[]): FindingSpec[] {
  const base = defaultOf(facts);
  const unknowns = facts.filter((f): f is Unknown => f.type === 'unknown');
  const specs: FindingSpec[] = [];
  const defaultClasses = new Set<NameClass>();
  const special = new Map<NameClass, Unknown[]>();
  for (const fact of unknowns) {
    const cls = nameClass(fact.probe.tool) ?? 'other';
    if (base !== undefined && likeDefault(fact, base)) defaultClasses.add(cls);
    else special.set(cls, [...(special.get(cls) ?? []), fact]);
  }
  if (base !== undefined) specs.push(defaultSpec(base, [...defaultClasses]));
  // Names that only hold a tool's name (`read_file`) reaching that tool's method beside names in another case: one
  // loose comparison (a pattern like /^read|view$/i), one finding.
  const cased = special.get('case');
  const holding = (special.get('other') ?? []).filter(
    (f) => cased !== undefined && f.reached.length > 0 && holdsNameOf(f.probe.tool, f.reached[0]!),
  );
  if (holding.length > 0) {
    special.set('case', [...cased!, ...holding]);
    special.set(
      'other',
      special.get('other')!.filter((f) => !holding.includes(f)),
    );
  }
  for (const [cls, own] of special) if (own.length > 0) specs.push(...classSpecs(cls, own));
  return specs;
}

function defaultSpec(base: Unknown, classes: NameClass[]): FindingSpec {
  const right = 'return { content: `unknown tool: ${name}`, is_error: true }';
  // What any name gets, the name written NAME.
  const as = (v: unknown) => substitute(v, DEFAULT_PROBE_NAME, 'NAME');
  const got = as(base.printed) as Record<string, unknown> | undefined;
  let text: string;
  if (base.threw !== undefined) {
    text = `execute threw (${as(base.threw)}) on a name outside the contract instead of returning { content: 'unknown tool: NAME', is_error: true }: an unknown tool is an observation for the model, not a crash. Your default branch must ${right}`;
  } else if (base.reached.length > 0) {
    text = `a name outside the contract reaches tools.${base.reached[0]}: your default branch must ${right}`;
  } else if (
    typeof got?.content === 'string' &&
    /^unknown tool:/i.test(got.content) &&
    got.content !== 'unknown tool: NAME'
  ) {
    const lowercase = got.content.toLowerCase() === 'unknown tool: name' ? 'lowercase ' : '';
    text = `the exact text is ${lowercase}\`unknown tool: NAME\` (your default branch answers \`${got.content}\`): ${right}`;
  } else if (jsonEqual({ ...got, is_error: true }, unknownAnswer('NAME'))) {
    text = `an unknown tool is an error: your default branch must ${right} (its result has no \`is_error: true\`)`;
  } else {
    text = `a name outside the contract gets ${shown(got)}: your default branch must ${right}`;
  }
  return {
    signature: 'default branch',
    names: [],
    rank: 4,
    text: () => text,
    triggers: () => classes.map((nameClass) => ({ nameClass })),
  };
}

function classSpecs(cls: NameClass, facts: Unknown[]): FindingSpec[] {
  const names = facts.map((f) => f.probe.tool);
  const reached = [...new Set(facts.flatMap((f) => f.reached))].map((m) => `tools.${m}`);
  const where = reached.length === 0 ? 'a tool' : reached.join(', ');
  if (cls === 'prototype') {
    const text = `${listNames(names)} reached Object.prototype: a plain-object lookup (handlers[name]) finds inherited members; use a switch, a Map or Object.hasOwn, so that each gets \`unknown tool: NAME\``;
    return [
      { signature: 'inherited names', names: [], rank: 3, text: () => text, triggers: () => [{ nameClass: cls }] },
    ];
  }
  if (cls === 'case' || cls === 'spaced') {
    const longer = facts.filter((f) => nameClass(f.probe.tool) === 'other').map((f) => f.probe.tool);
    const how =
      cls === 'spaced'
        ? 'compare the name as sent (no trim)'
        : longer.length === 0
          ? 'compare the name as sent (no toLowerCase)'
          : `compare the name as sent: no toLowerCase, and no pattern that matches a name only holding a tool's name (${listNames(longer)}), as /^read|view$/i does (its \`|\` splits the anchors)`;
    const text = `tool names are exact: ${listNames(names)} reached ${where} and must get \`unknown tool: NAME\`; ${how}`;
    return [
      {
        signature: `names compared loosely: ${cls}`,
        names: [],
        rank: 3,
        text: () => text,
        triggers: () => [{ nameClass: cls }, ...(longer.length === 0 ? [] : [{ names: longer }])],
      },
    ];
  }
  // Several names wired beside the contract's (Claude Code's `LS` and `MultiEdit`): one habit, one finding.
  const wired = facts.filter((f) => f.reached.length > 0 && f.threw === undefined);
  if (wired.length > 1) {
    const routes = wired.map((f) => `\`${f.probe.tool}\` reached tools.${f.reached[0]}`);
    const text = `${listNames(wired.map((f) => f.probe.tool))} are not tools of the contract, yet your dispatcher routes them: ${routes.join(', ')}. Route only the contract's names (docs/tools.md, "The dispatcher"); every other name must get { content: 'unknown tool: NAME', is_error: true }`;
    return [
      ...classSpecs(
        cls,
        facts.filter((f) => !wired.includes(f)),
      ),
      {
        signature: 'outside the contract: names wired',
        names: [],
        rank: 3,
        text: () => text,
        triggers: () => [{ names: wired.map((f) => f.probe.tool) }],
      },
    ];
  }
  return facts.map((f) => ({
    signature: `outside the contract: ${f.probe.tool}`,
    names: [f.probe.tool],
    rank: 3,
    text: () =>
      `\`${f.probe.tool}\` is not a tool of the contract, and ${f.reached.length > 0 ? `reached tools.${f.reached[0]}` : `got ${shown(f.threw ?? f.printed)}`}: it must get { content: 'unknown tool: ${f.probe.tool}', is_error: true }`,
    triggers: (n) => [{ names: n }],
  }));
}

// Whether a name outside the contract holds, in any case, a name the contract routes to `method` (`read_file`
// holds `Read`).
function holdsNameOf(name: string, method: string): boolean {
  const lower = name.toLowerCase();
  return (METHODS[method]?.names ?? []).some((n) => lower !== n.toLowerCase() && lower.includes(n.toLowerCase()));
}
