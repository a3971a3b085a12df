// Findings about answers a branch gives that are not what its method returned for the call: an answer of its own
// (a check of its own on the arguments, a refusal) given without calling the method, and a result reused from an
// earlier call with the same input (a cache). Each explains a failed call only when the call got that very answer
// (the own answer, written for the call's input), or repeated an earlier call of its case. Pure.
import type { Fact } from './compare-probe.ts';
import type { Probe } from './probe-calls.ts';
import { isRecord } from './read-observation.ts';
import { ECHO, ECHO_KEY, METHODS, methodOf } from '../../../course/dispatcher-contract.ts';
import { jsonEqual } from '../../../grade/judge/compare-results.ts';
import { anyOf, conditionsOf } from './branch-findings.ts';
import { answerTemplate, type Condition, type Trigger } from '../../../grade/judge/finding.ts';
import { type FindingSpec, factsByName, listNames, routedNames, shown, targetOf, verb } from './finding-spec.ts';

type Own = Extract<Fact, { type: 'own' }>;
type Reused = Extract<Fact, { type: 'reused' }>;

// A branch that answers some calls itself: one finding (its own checks are one mistake), each answer with its
// input values as `{key}`, said with when it was given.
export function ownSpecs(facts: Fact[], plan: Probe[]): FindingSpec[] {
  const specs: FindingSpec[] = [];
  const stateSpecs: Stateful[] = [];
  const plain: Plain[] = [];
  const carriedOver: string[] = [];
  for (const [name, all] of factsByName(facts)) {
    const target = targetOf(name);
    const own = all.filter((f): f is Own => f.type === 'own');
    // A call that reached another method and returned its answer is a detour, not an answer of the branch's own
    // (a branch that looks with tools.view, then refuses, answers itself).
    const detours = own.filter((f) => f.reached.length > 0 && jsonEqual(f.printed, f.probe.answer));
    specs.push(...detourSpecs(name, detours));
    // An answer the stand-in gave another probe call, given back without calling the method: a result kept from
    // an earlier call, even one through another makeExecute (a module-level cache), not an answer of its own.
    const carried = own.filter((f) => !detours.includes(f) && answeredElsewhere(f, plan));
    if (carried.length > 0) carriedOver.push(name);
    const owns = own.filter((f) => !detours.includes(f) && !carried.includes(f));
    if (owns.length === 0) continue;
    const byAnswer = new Map<string, Own[]>();
    for (const f of owns) {
      const key = JSON.stringify(answerTemplate(f.printed, f.probe.input, outsideKeys(f.probe)));
      byAnswer.set(key, [...(byAnswer.get(key) ?? []), f]);
    }
    const called = [...new Set(owns.flatMap((f) => f.reached))].map((m) => `tools.${m}`);
    // The call with every key answered by the branch, and the same call passed on after a Read of its path and a
    // `cd` through the same execute: a state kept between calls decides (a guard wanting the file read first).
    const full = owns.find((f) => f.probe.vary.kind === 'full');
    const stateful = full !== undefined && !all.some((f) => f.probe.vary.kind === 'after');
    const answers = [...byAnswer.values()].map((seen) => `${shown(seen[0]!.printed, 80)}${whenText(seen)}`);
    if (stateful) {
      stateSpecs.push({
        name,
        target,
        template: JSON.stringify(answerTemplate(full.printed, full.probe.input, outsideKeys(full.probe))),
        full,
        byAnswer,
      });
      continue;
    }
    plain.push({ name, target, byAnswer, called, answers });
  }
  return [...specs, ...carriedSpecs(carriedOver), ...plainSpecs(plain), ...statefulSpecs(stateSpecs)];
}

// Whether `f`'s answer is one the stand-in Tools gave another probe call of `plan` (each call's answer names its
// call).
function answeredElsewhere(f: Own, plan: Probe[]): boolean {
  return plan.some(
    (other) =>
      other !== f.probe &&
      (jsonEqual(f.printed, other.answer) || (other.again !== undefined && jsonEqual(f.printed, other.again))),
  );
}

// Names that gave back what their method had answered another call, without calling it: results kept between
// calls, between makeExecute calls too. One finding, which also explains the cases that passed alone and failed
// after others.
function carriedSpecs(names: string[]): FindingSpec[] {
  if (names.length === 0) return [];
  return [
    {
      signature: 'result: kept between makeExecute calls',
      names,
      rank: 1,
      leaks: true,
      text: (names) => {
        const targets = [...new Set(names.map(targetOf))];
        const methods = listNames(targets).replaceAll('`', '');
        return `execute gives back results it kept from earlier calls: ${listNames(names)} answered a call with what ${methods} had returned for another call, without calling ${verb(targets, 'it', 'them')}, even through a new makeExecute with new Tools. So results are kept outside makeExecute (a module-level cache: a Map or an object beside it), and a case sees answers of earlier calls and earlier cases. Files change between calls: call the Tools method every time and return what it returns, and keep nothing between calls`;
      },
      triggers: (names): Trigger[] => [{ names, repeated: true }],
    },
  ];
}

// A branch's own answers, as the finding says them.
type Plain = { name: string; target: string; byAnswer: Map<string, Own[]>; called: string[]; answers: string[] };

// One finding per set of answers the branches give: one check written into several branches (`if (!input.path)
// return …` in every file tool's) is one mistake, listing where it applies.
function plainSpecs(all: Plain[]): FindingSpec[] {
  const byAnswers = new Map<string, Plain[]>();
  for (const p of all) {
    const key = [...p.byAnswer.keys()].join(' ');
    byAnswers.set(key, [...(byAnswers.get(key) ?? []), p]);
  }
  return [...byAnswers.entries()].map(([key, group]) => {
    const targets = [...new Set(group.map((g) => g.target))];
    const target = listNames(targets).replaceAll('`', '');
    const called = [...new Set(group.flatMap((g) => g.called))];
    const { byAnswer, answers } = group[0]!;
    return {
      signature: `own answer: ${targets.join(' ')}: ${key}`,
      names: group.map((g) => g.name),
      rank: 4,
      text: (names: string[]) => {
        const instead =
          called.length === 0
            ? ''
            : ` (${verb(names, 'it calls', 'they call')} ${listNames(called).replaceAll('`', '')} instead)`;
        const onward =
          targets.length === 1
            ? `Pass every call on to ${target} and return what it returns; ${target} makes its own checks and words its own errors`
            : 'Pass every call on to its Tools method and return what it returns; the Tools make their own checks and word their own errors';
        return `${listNames(names)} ${verb(names, 'answers', 'answer')} some calls ${verb(names, 'itself', 'themselves')}, without calling ${target}${instead}: ${answers.join('; ')}. ${onward}`;
      },
      triggers: (names: string[]): Trigger[] =>
        [...byAnswer.keys()].map((t) => ({ names, answers: JSON.parse(t) as unknown })),
    };
  });
}

// A branch that answers a call itself, yet passes the same call on after a Read of its path through the same
// execute: its answer depends on earlier calls.
type Stateful = { name: string; target: string; template: string; full: Own; byAnswer: Map<string, Own[]> };

// One finding per answer the branches give (one guard in several branches is one mistake), listing where it applies.
function statefulSpecs(all: Stateful[]): FindingSpec[] {
  const byTemplate = new Map<string, Stateful[]>();
  for (const s of all) byTemplate.set(s.template, [...(byTemplate.get(s.template) ?? []), s]);
  return [...byTemplate.entries()].map(([template, group]) => {
    const targets = [...new Set(group.map((g) => g.target))];
    const first = group[0]!.full;
    const path = first.probe.input.path;
    return {
      signature: `own answer: after earlier calls: ${template}`,
      names: group.map((g) => g.name),
      rank: 4,
      text: (names) =>
        `${listNames(names)} answer a call themselves, without calling ${targets.join(', ')}: ${shown(first.printed, 80)}; yet the same call reaches ${verb(targets, 'it', 'them')} after a Read${typeof path === 'string' ? ` of ${shown(path, 40)}` : ''} through the same execute. So the dispatcher keeps a state between calls (a guard of its own, as "read before edit" is): pass every call on to its Tools method whatever came before, and return what it returns; the Tools make their own checks`,
      triggers: (names): Trigger[] =>
        group.flatMap((g) =>
          [...g.byAnswer.keys()].map((t) => ({
            names: names.filter((n) => n === g.name),
            answers: JSON.parse(t) as unknown,
          })),
        ),
    };
  });
}

// A name routed to its method but, under some inputs, to another one instead (an Edit with an empty old_str sent
// to tools.create): said with when, and it explains the calls that send such input.
function detourSpecs(name: string, detours: Own[]): FindingSpec[] {
  const conditions = detours.map((f) => conditionsOf(f.probe));
  if (detours.length === 0 || conditions.some((c) => c === undefined || c.length === 0)) return [];
  const reached = [...new Set(detours.flatMap((f) => f.reached))].map((m) => `tools.${m}`);
  const target = targetOf(name);
  const when = anyOf(conditions as Condition[][]);
  return [
    {
      signature: `detour: ${target} to ${reached.join(' ')} when ${when}`,
      names: [name],
      rank: 2,
      text: (names) =>
        `${listNames(names)} ${verb(names, 'reaches', 'reach')} ${reached.join(' and ')}, not ${target}, when ${when}: route every call to ${target}, which answers such input with its own error`,
      triggers: (names): Trigger[] => (conditions as Condition[][]).map((c) => ({ names, when: c })),
    },
  ];
}

// ` when input.path is "", or when input.path is not a string`: the conditions of the probe's calls so answered,
// when each is one.
function whenText(seen: Own[]): string {
  // Keys of other agents' tools sent beside or instead of the contract's (Claude Code's file_path): a check that
  // refuses what it does not know, where the contract reads its own keys and ignores the rest.
  const extra = seen.map((f) => outsideKeys(f.probe));
  if (extra.every((keys) => keys.length > 0)) {
    // The key the answer names, where it names one: the example fits the answer it follows.
    const answer = seen[0]!.printed;
    const printed = isRecord(answer)
      ? Object.values(answer)
          .filter((v) => typeof v === 'string')
          .join(' ')
      : '';
    const key = extra[0]!.find((k) => printed.includes(k)) ?? extra[0]![0]!;
    return ` when the input holds a key the contract does not read (${shown(key, 40)}, say), which the Tools ignore`;
  }
  const conditions = seen.map((f) => conditionsOf(f.probe));
  if (conditions.some((c) => c === undefined || c.length === 0)) return '';
  return ` when ${anyOf(conditions as Condition[][])}`;
}

// The keys of a probe's input that its name's contract does not read.
function outsideKeys(probe: Probe): string[] {
  const method = methodOf(probe.tool);
  const known = method === undefined ? [ECHO_KEY] : METHODS[method]!.keys;
  return Object.keys(probe.input).filter((k) => !known.includes(k));
}

// A branch that gives back an earlier call's result for the same input, or keeps fields of it on a later one.
export function reusedSpecs(facts: Fact[]): FindingSpec[] {
  return [...factsByName(facts)].flatMap(([name, all]): FindingSpec[] => {
    const reused = all.find((f): f is Reused => f.type === 'reused');
    if (reused === undefined) return [];
    const kept = reused.kept;
    return [
      {
        signature:
          kept === undefined ? 'result: reused from an earlier call' : `result: fields kept: ${kept.join(' ')}`,
        names: [name],
        rank: 1,
        text: (names) => {
          const methods = [...new Set(names.map(targetOf))];
          const each = methods.length === 1 ? methods[0]! : 'the Tools method';
          // Every name but echo, which has no method to call: "every tool name", in the singular.
          const every = names.length === routedNames().length - 1;
          const who = every ? 'every tool name' : listNames(names);
          const forms = every ? [who] : names;
          if (kept !== undefined) {
            const fields = listNames(kept);
            return `execute changes what ${each} returned: ${who} ${verb(forms, 'keeps', 'keep')} fields of an earlier result on a later one, as one result object filled again on each call (Object.assign) does: the grader called ${verb(names, 'it', 'each')} twice, ${each} answered the second time without ${fields}, and the second result still had the first's. Return what ${each} returns for each call, a new object every time`;
          }
          const skipped = reused.called ? '' : ` (${targetOf(name)} was not even called the second time)`;
          return `execute changes what ${each} returned: ${who} ${verb(forms, 'gives', 'give')} back the result of an earlier call with the same input, as a cache keyed by name and input does: the grader sent one input twice, ${each} answered otherwise the second time, and the second call got the first answer${skipped}. Files change between calls (a Write, an Edit or a Bash command may have changed what a view shows): call ${each} every time and return what it returns`;
        },
        // Fields kept on every method's results are kept on echo's too: one object behind the whole switch.
        triggers: (names): Trigger[] =>
          kept === undefined
            ? [{ names, repeated: true }]
            : [{ names: names.length === routedNames().length - 1 ? [...names, ECHO] : names, kept: true }],
      },
    ];
  });
}
