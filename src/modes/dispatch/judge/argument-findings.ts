// Findings about the arguments a branch passes (and the text echo returns): per name, one finding naming the call
// the student wrote beside the contract's, what is wrong with it, and, apart from that, what an empty value, a
// value with spaces at its ends or the fallback key alone turn into. Pure.
import type { Fact } from './compare-probe.ts';
import { argumentText, ECHO_KEY, KEY_KINDS, METHODS, methodOf } from '../../../course/dispatcher-contract.ts';
import type { Condition, Trigger } from '../../../grade/judge/finding.ts';
import { type FindingSpec, factsByName, listNames, shown, verb } from './finding-spec.ts';

type ArgFact = Extract<Fact, { type: 'arg' }>;
// What is wrong with one argument: with the key sent (`sent`; `misread`: the name it was read under instead), or
// only when the key is empty, has spaces at its ends, or is left out for the key behind `??`.
type Problem = {
  fact: ArgFact;
  misread?: string;
  when: 'sent' | 'falsy' | 'edged' | 'mistyped' | 'fallback' | 'shifted' | 'reordered';
};

export function argumentSpecs(facts: Fact[]): FindingSpec[] {
  const specs: FindingSpec[] = [];
  for (const [name, own] of factsByName(facts)) {
    const args = own.filter((f): f is ArgFact => f.type === 'arg');
    if (args.length === 0) continue;
    const method = methodOf(name);
    const sources = method === undefined ? [ECHO_KEY] : METHODS[method]!.args;
    const problems: Problem[] = [];
    const conditions = new Map<string, Condition[]>();
    for (const index of [...new Set(args.map((f) => f.index))].sort()) {
      const list = args.filter((f) => f.index === index);
      const source = sources[index] ?? '';
      const via = typeof source === 'string' ? {} : { via: [...source] };
      const strong = list.filter((f) => f.weak !== true);
      const problem = problemOf(strong);
      // What a call leaving the key out gets counts only where the branch converts the key: the conversion of
      // nothing (NaN, "undefined") is what breaks such a call; any other default the Tools may take alike.
      const converts = problem?.fact.got.kind === 'converted';
      for (const f of converts ? list : strong) {
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
      if (problem !== undefined) problems.push(problem);
    }
    if (problems.length === 0) continue;
    // Arguments that follow the order the keys were sent in: one mistake, whatever the method, and what it does
    // to a key left out is the same mistake.
    if (problems.some((p) => p.when === 'reordered')) {
      specs.push({
        signature: 'arguments: by the order of the keys',
        names: [name],
        rank: 8,
        text: (names) =>
          `with the same input keys sent in another order, ${listNames(names)} ${verb(names, 'passes', 'pass')} other arguments to ${verb(names, 'its Tools method', 'their Tools methods')}: the arguments follow the order of the input's keys (as \`...Object.values(input)\` does), and a key left out moves the next into its place. Take each by its key, as the contract does (${listNames([...new Set(names.map((n) => METHODS[methodOf(n) ?? '']?.call ?? n))]).replaceAll('`', '')})`,
        triggers: (names): Trigger[] => [{ names }],
      });
      continue;
    }
    const words = method === undefined ? echoWords(problems) : methodWords(method, problems);
    specs.push({
      signature: `arguments: ${method ?? 'echo'}: ${words('·')}`,
      names: [name],
      rank: 8,
      text: (names) => words(listNames(names), names),
      triggers: (names): Trigger[] => [...conditions.values()].map((when) => ({ names, when })),
    });
  }
  return specs;
}

function problemOf(list: ArgFact[]): Problem | undefined {
  const sent = list.find((f) => f.probe.vary.kind === 'full') ?? list.find((f) => f.probe.vary.kind === 'required');
  if (sent !== undefined) {
    const misread = list.find((f) => f.probe.vary.kind === 'misread')?.got;
    const decoy = sent.got.kind === 'missing' && misread?.kind === 'key' ? { misread: misread.key } : {};
    return { fact: sent, when: 'sent', ...decoy };
  }
  const reordered = list.find((f) => f.probe.vary.kind === 'reordered');
  if (reordered !== undefined) return { fact: reordered, when: 'reordered' };
  const falsy = list.find((f) => f.class === 'falsy');
  if (falsy !== undefined) return { fact: falsy, when: 'falsy' };
  const mistyped = list.find((f) => f.class === 'mistyped');
  if (mistyped !== undefined) return { fact: mistyped, when: 'mistyped' };
  const edged = list.find((f) => f.class === 'edged');
  if (edged !== undefined) return { fact: edged, when: 'edged' };
  const absent = list.find((f) => f.probe.vary.kind === 'absent');
  if (absent === undefined) return undefined;
  // The fallback behind `??` never read, or, for any other key left out, what went in its place.
  const left = absent.probe.vary.kind === 'absent' ? absent.probe.vary.key : '';
  const pair = METHODS[methodOf(absent.probe.tool) ?? '']?.args.find((a) => typeof a !== 'string' && a[0] === left);
  return { fact: absent, when: pair !== undefined && pair.includes(absent.key) ? 'fallback' : 'shifted' };
}

// What reached a place, as code: `input.path`, `input`, `"x"`.
function expression(p: Problem): string {
  const { got, key } = p.fact;
  if (got.kind === 'input') return 'input';
  if (got.kind === 'missing') return p.misread === undefined ? 'undefined' : `input.${p.misread}`;
  if (got.kind === 'key') return `input.${got.key}`;
  if (got.kind === 'trimmed') return `input.${key}.${got.how === 'newlines' ? 'replace(/\\n+$/, "")' : `${got.how}()`}`;
  if (got.kind === 'changed') return `(input.${key}, changed)`;
  return shown(got.value, 40);
}

// `a timeout of 0`, `an empty insert_text ("")`.
function empty(key: string): string {
  return KEY_KINDS[key] === 'number' ? `an input.${key} of 0` : `an empty input.${key} ("")`;
}

// The sentence for a method's branch, given how its names read.
function methodWords(method: string, problems: Problem[]): (names: string, list?: string[]) => string {
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
  for (const p of problems.filter((q) => q.when !== 'sent')) parts.push(otherWords(p, `tools.${method}`, method));
  return (names, list = ['']) =>
    parts
      .map((part) =>
        part
          .replace('{names}', names)
          .replace('{calls}', verb(list, 'calls', 'call'))
          .replace('{reads}', verb(list, 'reads', 'read'))
          .replace('{turns}', verb(list, 'turns', 'turn'))
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
  if (got.kind === 'changed')
    return `input.${key} reaches it changed (${shown(got.value, 40)} for ${want}): pass it as the model sent it`;
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
function otherWords(p: Problem, target: string, method?: string): string {
  const { got, key } = p.fact;
  if (p.when === 'fallback') {
    const source = METHODS[method ?? '']?.args.find((a) => typeof a !== 'string' && a.includes(key));
    const [first, second] = typeof source === 'string' || source === undefined ? [key, key] : source;
    return `{names} {reads} only input.${first}: when the model sends the text as \`${second}\` (Anthropic's name for it), ${target} gets nothing. Pass ${source === undefined ? `input.${key}` : argumentText(source)}`;
  }
  if (p.when === 'shifted') {
    const left = p.fact.probe.vary.kind === 'absent' ? p.fact.probe.vary.key : '';
    const seen = got.kind === 'missing' ? 'nothing' : expression(p);
    return `when input.${left} is left out, ${target} gets ${seen} where input.${key} goes: pass each argument by its key, as the contract does (${METHODS[method ?? '']?.call ?? target})`;
  }
  if (p.when === 'mistyped') {
    const sent = shown(p.fact.probe.input[key], 20);
    const how =
      got.kind === 'converted'
        ? `{turns} input.${key} into a ${got.to} (${got.to === 'number' ? `Number(input.${key})` : `String(input.${key})`}: ${sent} became ${shown(got.value, 20)})`
        : `{changes} an input.${key} of the wrong type (${sent} became ${expression(p)})`;
    return `{names} ${how} before ${target} sees it: pass it as the model sent it; ${target} checks its type and answers a wrong one with its own error`;
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

// Echo's one "argument" is the text it returns.
function echoWords(problems: Problem[]): (names: string) => string {
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
    if (p.when === 'falsy' && got.kind === 'value') {
      return `\`input.text || ${shown(got.value, 40)}\` turns an empty text into ${shown(got.value, 40)}: return { content: input.text } as it is`;
    }
    if (got.kind === 'input')
      return 'echo returned the whole input as its content: it must return { content: input.text }';
    if (got.kind === 'missing' && p.misread !== undefined) {
      return `echo reads input.${p.misread}, but the model sends \`text\`: return { content: input.text }`;
    }
    return `echo's content is ${expression(p)} where the contract returns input.text: return { content: input.text }`;
  });
  return () => parts.join('. Also: ');
}
