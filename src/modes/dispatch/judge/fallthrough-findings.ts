// A call that reached its method and then another one: the probe saw both called for one execute call, so the
// finding says that, and no wrong route (the call did reach its own method first). Pure.
import type { Fact } from './compare-probe.ts';
import type { Trigger } from '../../../grade/judge/finding.ts';
import { type FindingSpec, factsByName, listNames, verb } from './finding-spec.ts';

type Also = Extract<Fact, { type: 'also' }>;

export function fallthroughSpecs(facts: Fact[]): FindingSpec[] {
  return [...factsByName(facts)].flatMap(([name, own]): FindingSpec[] => {
    const also = own.find((f): f is Also => f.type === 'also');
    if (also === undefined) return [];
    const then = also.after.map((m) => `tools.${m}`).join(' and then ');
    return [
      {
        signature: `also: ${also.method} then ${also.after.join(' ')}`,
        names: [name],
        rank: 2,
        text: (names) =>
          `one call to ${listNames(names)} ${verb(names, 'calls', 'call')} tools.${also.method} and then ${then}: one call should reach one method and return what it returned. A \`case\` without \`break\` (or \`return\`) runs on into the next case — a missing break? (\`npm run typecheck\` flags one: the grader runs your code without type-checking it)`,
        triggers: (names): Trigger[] => [{ names }],
      },
    ];
  });
}
