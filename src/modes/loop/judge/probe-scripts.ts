// The loop probe's scripts: short loop cases, each giving one rule of the contract (docs/stages/agent-loop.md)
// something to do, so that where a loop goes another way in each, one mistake is seen at a time. program.ts runs
// them all against the student's runLoop once per run (its probe mode); find-loop-mistakes.ts reads what it saw.
// Ordered from what every case needs to what few do. Pure data.
import type { ApiObject, LoopCaseData, ScriptedOutput } from '../case.ts';

const MODEL = 'claude-sonnet-4-6';

const TOOLS: ApiObject[] = [
  {
    name: 'Read',
    description: 'Reads a file and returns its lines numbered from 1.',
    input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'Bash',
    description: 'Runs a shell command and returns its output.',
    input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

const text = (t: string): ApiObject => ({ type: 'text', text: t });
const read = (id: string, path: string): ApiObject => ({ type: 'tool_use', id, name: 'Read', input: { path } });
const bash = (id: string, command: string): ApiObject => ({ type: 'tool_use', id, name: 'Bash', input: { command } });

// A model turn as the Messages API returns it.
function turn(n: number, stop_reason: string, content: ApiObject[]) {
  return {
    message: {
      id: `msg_probe_${n}`,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content,
      stop_reason,
      stop_sequence: null,
      usage: { input_tokens: 20, output_tokens: 10 },
    },
  };
}

const DONE = (n: number) => turn(n, 'end_turn', [text('Done.')]);

function script(description: string, turns: LoopCaseData['turns'], outputs: Record<string, ScriptedOutput> = {}) {
  const request = {
    model: MODEL,
    max_tokens: 1024,
    system: 'You are a coding agent. Use the tools to look at the project.',
    tools: TOOLS,
    messages: [{ role: 'user', content: 'What is in a.txt and b.txt?' }],
  };
  return { description, request, turns, outputs } satisfies LoopCaseData;
}

export const PROBE_SCRIPTS: LoopCaseData[] = [
  script('one tool call, then the answer', [turn(1, 'tool_use', [read('toolu_probe_1', 'a.txt')]), DONE(2)], {
    toolu_probe_1: { content: '1\thello' },
  }),
  script(
    'text and two tool calls in one turn',
    [
      turn(1, 'tool_use', [text('Reading both.'), read('toolu_probe_2', 'a.txt'), read('toolu_probe_3', 'b.txt')]),
      DONE(2),
    ],
    { toolu_probe_2: { content: '1\thello' }, toolu_probe_3: { content: '1\tworld' } },
  ),
  script('an output with is_error', [turn(1, 'tool_use', [bash('toolu_probe_4', 'cat c.txt')]), DONE(2)], {
    toolu_probe_4: { content: 'cat: c.txt: No such file or directory', is_error: true, exit_code: 1 },
  }),
  script('an execute that throws', [turn(1, 'tool_use', [read('toolu_probe_5', 'a.txt')]), DONE(2)], {
    toolu_probe_5: { throws: 'EACCES: permission denied, open a.txt' },
  }),
  script(
    'a thinking block before the call',
    [
      turn(1, 'tool_use', [
        {
          type: 'thinking',
          thinking: 'The user asks what two files hold. Read a.txt first, then see whether b.txt is needed.',
          signature: 'c2lnbmF0dXJlLW9mLXRoZS1wcm9iZQ==',
        },
        read('toolu_probe_6', 'a.txt'),
      ]),
      DONE(2),
    ],
    { toolu_probe_6: { content: '1\thello' } },
  ),
  script('an answer cut off by max_tokens', [turn(1, 'max_tokens', [text('a.txt says hel')])]),
  script('a tool_use cut off by max_tokens', [
    turn(1, 'max_tokens', [text('I will list the files.'), bash('toolu_probe_7', 'ls')]),
  ]),
  script('an answer with no tools', [turn(1, 'end_turn', [text('a.txt says hello.')])]),
  script(
    'three turns of tools, one after another',
    // Request 4 holds 7 messages: more than a loop that keeps a window of the last few sends.
    [1, 2, 3].map((n) => turn(n, 'tool_use', [read(`toolu_probe_turn_${n}`, `${n}.txt`)])).concat(DONE(4)),
    // Each output ends with a line break, as a command's does; the second is empty, as a command's that prints
    // nothing.
    Object.fromEntries([1, 2, 3].map((n) => [`toolu_probe_turn_${n}`, { content: n === 2 ? '' : `1\tpart ${n}\n` }])),
  ),
  // Finishing 3, 1, 2: neither the calls' order, nor its reverse, nor the ids' (a loop that sorts them).
  script(
    'three calls at once that finish out of order',
    [
      turn(1, 'tool_use', [
        read('toolu_probe_order_1', 'a.txt'),
        bash('toolu_probe_order_2', 'sleep 1; ls'),
        read('toolu_probe_order_3', 'b.txt'),
      ]),
      DONE(2),
    ],
    {
      toolu_probe_order_1: { content: '1\thello', delay_ms: 10 },
      toolu_probe_order_2: { content: 'a.txt\nb.txt', delay_ms: 20 },
      toolu_probe_order_3: { content: '1\tworld' },
    },
  ),
  // The throw comes first, while the calls beside it still run (finishing 2, 3, 1).
  script(
    'a throw beside two other calls',
    [
      turn(1, 'tool_use', [
        read('toolu_probe_beside_1', 'a.txt'),
        bash('toolu_probe_throws', 'make'),
        read('toolu_probe_beside_2', 'b.txt'),
      ]),
      DONE(2),
    ],
    {
      toolu_probe_beside_1: { content: '1\thello', delay_ms: 10 },
      toolu_probe_throws: { throws: 'spawn /bin/sh EAGAIN' },
      toolu_probe_beside_2: { content: '1\tworld', delay_ms: 5 },
    },
  ),
  // A name the request's tools do not have: the loop passes it to execute all the same. Its answer is worded as no
  // dispatcher words it, so a loop that answers the name itself differs here even in the course's own words.
  script(
    'a tool the request does not list',
    [
      turn(1, 'tool_use', [
        { type: 'tool_use', id: 'toolu_probe_unknown', name: 'ReadFile', input: { path: 'a.txt' } },
      ]),
      DONE(2),
    ],
    { toolu_probe_unknown: { content: 'probe: ReadFile is not a tool here', is_error: true } },
  ),
  // An exit code that is not 0 without is_error: a loop that decides the error flag by exit_code differs here.
  script(
    'an output with an exit code and no is_error',
    [turn(1, 'tool_use', [bash('toolu_probe_exit', 'grep -rn TODO src')]), DONE(2)],
    {
      toolu_probe_exit: { content: 'no match', exit_code: 1 },
    },
  ),
  // A loop that cuts outputs short (at 2,000 characters, 8,000, 30,000, 50,000) shows it only on an output longer
  // than its cut: a server log of 60,000 characters, as long as the case tools-long-output's.
  script(
    'an output 60,000 characters long',
    [turn(1, 'tool_use', [bash('toolu_probe_long', 'cat server.log')]), DONE(2)],
    { toolu_probe_long: { content: serverLog(60_000) } },
  ),
];

// Lines of a server log, numbered from 1, cut to `length` characters.
function serverLog(length: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let n = 1; size < length; n += 1) {
    const line = `${String(n).padStart(5)}\tGET /api/brew?id=${n} ${n % 7 === 0 ? 404 : 200} ${10 + (n % 90)}ms\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join('').slice(0, length);
}

// What the grader asks program.ts's probe mode (loop) to run: `{"observe":{"scripts":[…]}}` on the first line.
export function loopProbeRequest(): { scripts: LoopCaseData[] } {
  return { scripts: PROBE_SCRIPTS };
}
