// Findings about how a branch behaves, whatever its arguments: it throws (always, or under the inputs that made it
// throw), it never returns although its method answered at once, or it calls its method without the Tools object.
// Pure.
import type { Fact } from './compare-probe.ts';
import { KEY_KINDS, METHODS, methodOf, missingMethod, missingMethodText } from '../../../course/dispatcher-contract.ts';
import type { Condition } from '../../../grade/judge/finding.ts';
import { type FindingSpec, factsByName, listNames, routedNames, substitute, targetOf, verb } from './finding-spec.ts';
import type { Probe } from './probe-calls.ts';

// The conditions under which a probe's call differs from the `full` one: the key it leaves empty, null or out, or
// sends as a value of another type.
export function conditionsOf(probe: Probe): Condition[] | undefined {
  const v = probe.vary;
  if (v.kind === 'full') return [];
  if (v.kind === 'falsy' || v.kind === 'null' || v.kind === 'absent' || v.kind === 'mistyped') {
    return [{ key: v.key, class: v.kind }];
  }
  if (v.kind === 'edged' || v.kind === 'dotted') return [{ key: v.key, class: v.kind }];
  if (v.kind === 'required') {
    const method = methodOf(probe.tool);
    const keys = method === undefined ? [] : METHODS[method]!.keys.filter((k) => !(k in probe.input));
    return keys.map((key) => ({ key, class: 'absent' }));
  }
  return undefined;
}

// How a condition reads in a hint: `input.view_range is null`.
export function conditionText(c: Condition): string {
  if (c.class === 'absent') return `input.${c.key} is left out`;
  if (c.class === 'mistyped') {
    const kind = KEY_KINDS[c.key];
    return `input.${c.key} is not a ${kind === 'number' ? 'number' : kind === 'range' ? 'pair of numbers' : 'string'}`;
  }
  if (c.class === 'null') return `input.${c.key} is null`;
  if (c.class === 'falsy') return `input.${c.key} is ${KEY_KINDS[c.key] === 'number' ? '0' : '""'}`;
  if (c.class === 'edged') return `input.${c.key} has spaces or line breaks at an end`;
  if (c.class === 'dotted') return `input.${c.key} starts with ./`;
  return `input.${c.key} is sent`;
}

// Conditions joined as a hint reads them: `input.path is "", is not a string or is left out` (the key said once
// when every one is about it).
export function anyOf(conditions: Condition[][]): string {
  const texts = [...new Set(conditions.map((cs) => cs.map(conditionText).join(' and ')))];
  const key = conditions[0]?.[0]?.key;
  const one = key !== undefined && conditions.every((cs) => cs.length === 1 && cs[0]!.key === key);
  const shown = one ? texts.map((t, k) => (k === 0 ? t : t.slice(`input.${key} `.length))) : texts;
  return shown.length <= 1 ? shown.join('') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

// A branch that throws: always (its `full` call threw), or under the conditions of the calls that threw.
export function throwSpecs(facts: Fact[]): FindingSpec[] {
  const specs: FindingSpec[] = [];
  for (const [name, own] of factsByName(facts)) {
    const throws = own.filter((f): f is Extract<Fact, { type: 'threw' }> => f.type === 'threw');
    if (throws.length === 0) continue;
    const rethrown = rethrownAs(throws);
    if (rethrown !== undefined) {
      specs.push({
        signature: `throws: the error answered: ${rethrown}`,
        names: [name],
        rank: 5,
        text: (names) =>
          `execute throws the errors ${listNames([...new Set(names.map(targetOf))]).replaceAll('`', '')} answered (the grader's stand-in answered an error, and ${listNames(names)} threw it as ${rethrown}): a failure must come back as the ToolOutput { content, is_error: true } the method returned, never a throw`,
        triggers: (names) => [{ names, change: { throws: rethrown } }],
      });
      continue;
    }
    const always = throws.some((f) => f.probe.vary.kind === 'full');
    const missing = always ? missingMethod(throws[0]!.message, name) : undefined;
    if (missing !== undefined) {
      specs.push({
        signature: `throws: missing method: ${missing.called} for ${missing.method}`,
        names: [name],
        rank: 5,
        text: (names) => missingMethodText(missing, names),
        triggers: (names) => [{ names, when: [] }],
      });
      continue;
    }
    const conditions = always ? [[]] : throws.map((f) => conditionsOf(f.probe)).filter((c) => c !== undefined);
    if (conditions.length === 0) continue;
    const message = throws[0]!.message;
    const when = always
      ? ''
      : ` when ${conditions.map((cs) => cs.map(conditionText).join(' and ')).join(', or when ')}`;
    specs.push({
      signature: `throws: ${targetOf(name)}${when}: ${substitute(message, name, '<name>')}`,
      names: [name],
      rank: 5,
      text: (names) =>
        `execute threw (${message}) on ${listNames(names)}${when}: a failure must come back as { content, is_error: true }, never a throw`,
      triggers: (names) => conditions.map((when) => ({ names, when })),
    });
  }
  return specs;
}

// The Error name a branch throws each error its method answered as (its message the error's text), when every throw
// seen is one.
function rethrownAs(throws: Extract<Fact, { type: 'threw' }>[]): string | undefined {
  const names = throws.map((f) => {
    const { content, is_error } = f.probe.answer;
    const suffix = `: ${content}`;
    return is_error === true && f.message.endsWith(suffix) ? f.message.slice(0, -suffix.length) : undefined;
  });
  return names.every((n) => n !== undefined && n === names[0]) ? names[0] : undefined;
}

// A branch that never returns although its method answered at once: the hang is the dispatcher's own.
export function pendingSpecs(facts: Fact[]): FindingSpec[] {
  return routedNames().flatMap((name): FindingSpec[] => {
    if (!facts.some((f) => f.type === 'pending' && f.probe.tool === name && f.probe.vary.kind === 'full')) return [];
    const target = targetOf(name);
    const not = target === 'echo' ? '' : `, not in ${target}`;
    return [
      {
        signature: `never returns: ${target}`,
        names: [name],
        rank: 6,
        text: (names) =>
          `${listNames(names)} never ${verb(names, 'returns', 'return')}, even when ${target === 'echo' ? 'nothing is called' : `${target} answers at once (the grader tried it with a stand-in Tools)`}: the hang is in makeExecute's branch${not} — a loop that never ends, or an \`await\` on something that never resolves`,
        triggers: (names) => [{ names, inFlight: true }],
      },
    ];
  });
}

// A method called without its object: `this` is undefined inside it.
export function unboundSpecs(facts: Fact[]): FindingSpec[] {
  const seen = new Set<string>();
  return facts.flatMap((f): FindingSpec[] => {
    if (f.type !== 'unbound' || seen.has(f.probe.tool)) return [];
    seen.add(f.probe.tool);
    // Methods taken off tools in several branches are one mistake (a table of tools.view, tools.bash, …): one message.
    return [
      {
        signature: 'unbound',
        names: [f.probe.tool],
        rank: 7,
        text: (names) => unboundText(names),
        triggers: (names) => [{ names }],
      },
    ];
  });
}

// The names that call their method without the Tools object, said per method when there is one.
function unboundText(names: string[]): string {
  const methods = [...new Set(names.map((n) => methodOf(n) ?? n))];
  if (methods.length === 1) {
    const m = methods[0]!;
    return `${listNames(names)} ${verb(names, 'calls', 'call')} tools.${m} without its Tools object (\`const { ${m} } = tools\`, or tools.${m} passed on as a function), so \`this\` is undefined inside it: call it as tools.${m}(…), or bind it`;
  }
  const calls = methods.map((m) => `tools.${m}`).join(', ');
  return `${listNames(names)} call ${calls} without their Tools object (a method taken off tools, as \`const { view } = tools\` or a table of tools.view, tools.bash, … does), so \`this\` is undefined inside them: call each as tools.${methods[0]}(…), or bind it (tools.${methods[0]}.bind(tools))`;
}
