// Every default and limit a user can meet, read from the one constant that holds each: docs/commands.md's table is
// rendered from these rows (npm run docs:defaults writes it; test/docs/defaults-table.test.ts fails when it is stale),
// and the --help texts take the same constants. Changing a default is one line where its constant lives.
import { DEFAULT_MAX_CALLS, DEFAULT_MAX_TURNS } from '../record/record-types.ts';
import { REPLAY_BASH_MS } from '../record/record-transcripts.ts';
import { SLOW_CALL_MS } from '../record/replay/judge-window.ts';
import { RELEASE_AFTER_MS, RELEASE_FACTOR } from '../grade/run/batch-machine.ts';
import { DEFAULT_CASE_TIMEOUT_MS } from '../grade/run/case-timeout.ts';
import { MAX_JOBS_PER_CORE, MAX_WATCH_JOBS, WORK_PER_JOB_MS } from '../grade/run/default-jobs.ts';
import {
  CASE_CPU_SECONDS,
  DEFAULT_MEMORY_MIB,
  MAX_FILE_MIB,
  MAX_PROCESSES,
  MEMORY_ENV,
  MIN_MEMORY_MIB,
  OUT_OF_CPU_CASES,
  TIMED_OUT_CASES,
  PROCESS_CPU_SECONDS,
} from '../grade/run/isolation/program-limits.ts';
import { SUBMISSION_LIMITS } from '../grade/run/isolation/read-submission.ts';
import { TMP_BYTES } from '../grade/run/isolation/sandbox-layout.ts';
import {
  MAX_CHANNEL_BYTES,
  MAX_CHANNEL_CONNECTIONS,
  MAX_CHANNEL_UNREAD_BYTES,
  MAX_CHANNEL_VALUES,
} from '../grade/run/channel-server.ts';
import { MAX_CASE_REQUEST_VALUES } from '../modes/loop/fake-api.ts';
import { GONE_WITHIN_MS } from '../modes/leftovers.ts';
import {
  CPU_SAMPLE_MS,
  DRAIN_MS,
  EXIT_GRACE_MS,
  MAX_RESULT_LINE_BYTES,
  STARTUP_ALLOWANCE_MS,
} from '../grade/run/program-machine.ts';

// One row of the table: what it is, the flag or variable that changes it (if any), its value, and where it lives.
export type DefaultRow = { what: string; setBy: string; value: string; source: string };

const MIB = 1024 * 1024;
const number = (n: number): string => n.toLocaleString('en-US');
// "10,000 ms (10 s)", "500 ms".
export const formatMs = (ms: number): string => (ms >= 1000 ? `${number(ms)} ms (${ms / 1000} s)` : `${ms} ms`);
// "1,024 MiB (1 GiB)", "64 MiB".
export const formatMib = (mib: number): string =>
  mib >= 1024 && mib % 1024 === 0 ? `${number(mib)} MiB (${mib / 1024} GiB)` : `${number(mib)} MiB`;

export const DEFAULT_ROWS: readonly DefaultRow[] = [
  {
    what: 'case timeout: the time one case may take',
    setBy: '`--timeout <ms>`',
    value: formatMs(DEFAULT_CASE_TIMEOUT_MS),
    source: '`DEFAULT_CASE_TIMEOUT_MS`, src/grade/run/case-timeout.ts',
  },
  {
    what: 'memory of a program process (below the least, Node with tsx does not start)',
    setBy: `\`--memory <MiB>\`, \`${MEMORY_ENV}\``,
    value: `${formatMib(DEFAULT_MEMORY_MIB)}, at least ${number(MIN_MEMORY_MIB)} MiB`,
    source: '`DEFAULT_MEMORY_MIB`, `MIN_MEMORY_MIB`, src/grade/run/isolation/program-limits.ts',
  },
  {
    what: 'processes and threads in one sandbox',
    setBy: '',
    value: number(MAX_PROCESSES),
    source: '`MAX_PROCESSES`, src/grade/run/isolation/program-limits.ts',
  },
  {
    what: "CPU time of one case's processes together, those still running from an earlier case included (else `out of CPU time`)",
    setBy: '',
    value: `${formatMs(CASE_CPU_SECONDS * 1000)}, read every ${formatMs(CPU_SAMPLE_MS)}`,
    source:
      '`CASE_CPU_SECONDS`, src/grade/run/isolation/program-limits.ts; `CPU_SAMPLE_MS`, src/grade/run/program-machine.ts',
  },
  {
    what: "cases of one run (one submission's, in a class) out of CPU time, after which its other cases are not run and fail, saying why",
    setBy: '',
    value: String(OUT_OF_CPU_CASES),
    source: '`OUT_OF_CPU_CASES`, src/grade/run/isolation/program-limits.ts',
  },
  {
    what: "cases of one run (one submission's, in a class) past their deadline while none of its cases ended otherwise, after which its other cases are not run and fail, saying why",
    setBy: '',
    value: String(TIMED_OUT_CASES),
    source: '`TIMED_OUT_CASES`, src/grade/run/isolation/program-limits.ts',
  },
  {
    what: 'processes a case started that still run when it ends (a command sent to the background, a child never waited for)',
    setBy: '',
    value: `killed as the case ends, before its result; waited for up to ${formatMs(GONE_WITHIN_MS)}`,
    source: '`killLeftovers`, `GONE_WITHIN_MS`, src/modes/leftovers.ts',
  },
  {
    what: 'CPU time of any one process in its life (RLIMIT_CPU)',
    setBy: '',
    value: formatMs(PROCESS_CPU_SECONDS * 1000),
    source: '`PROCESS_CPU_SECONDS`, src/grade/run/isolation/program-limits.ts',
  },
  {
    what: 'size of a file a program writes',
    setBy: '',
    value: formatMib(MAX_FILE_MIB),
    source: '`MAX_FILE_MIB`, src/grade/run/isolation/program-limits.ts',
  },
  {
    what: "a program's temp space (its TMPDIR and HOME, a tmpfs)",
    setBy: '',
    value: formatMib(TMP_BYTES / MIB),
    source: '`TMP_BYTES`, src/grade/run/isolation/sandbox-layout.ts',
  },
  {
    what: 'a submission the grader copies (else exit 2)',
    setBy: '',
    value: `${number(SUBMISSION_LIMITS.files)} files, ${formatMib(SUBMISSION_LIMITS.bytes / MIB)}`,
    source: '`SUBMISSION_LIMITS`, src/grade/run/isolation/read-submission.ts',
  },
  {
    what: "a result line on the program's stdout (longer: `bad-output`)",
    setBy: '',
    value: formatMib(MAX_RESULT_LINE_BYTES / MIB),
    source: '`MAX_RESULT_LINE_BYTES`, src/grade/run/program-machine.ts',
  },
  {
    what: 'what a program process sends the grader over its channel, in all (more: `bad-output`)',
    setBy: '',
    value: formatMib(MAX_CHANNEL_BYTES / MIB),
    source: '`MAX_CHANNEL_BYTES`, src/grade/run/channel-server.ts',
  },
  {
    what: 'JSON values in what a program process sends the grader over its channel, in all (more: `bad-output`)',
    setBy: '',
    value: MAX_CHANNEL_VALUES.toLocaleString('en-US'),
    source: '`MAX_CHANNEL_VALUES`, src/grade/run/channel-server.ts',
  },
  {
    what: "The grader's answers one channel connection may leave unread (more: `bad-output`)",
    setBy: '',
    value: `${MAX_CHANNEL_UNREAD_BYTES / 1024 / 1024} MiB`,
    source: '`MAX_CHANNEL_UNREAD_BYTES`, src/grade/run/channel-server.ts',
  },
  {
    what: "JSON values in a loop case's requests together (more: each answered 413, kept as a line that says so)",
    setBy: '',
    value: MAX_CASE_REQUEST_VALUES.toLocaleString('en-US'),
    source: '`MAX_CASE_REQUEST_VALUES`, src/modes/loop/fake-api.ts',
  },
  {
    what: 'connections a program process holds open to its channel at once (more: each closed as it comes)',
    setBy: '',
    value: String(MAX_CHANNEL_CONNECTIONS),
    source: '`MAX_CHANNEL_CONNECTIONS`, src/grade/run/channel-server.ts',
  },
  {
    what: "added to a process's first case until its first call starts",
    setBy: '',
    value: formatMs(STARTUP_ALLOWANCE_MS),
    source: '`STARTUP_ALLOWANCE_MS`, src/grade/run/program-machine.ts',
  },
  {
    what: "a process's time to exit after its last result",
    setBy: '',
    value: formatMs(EXIT_GRACE_MS),
    source: '`EXIT_GRACE_MS`, src/grade/run/program-machine.ts',
  },
  {
    what: "output still read after a process's exit",
    setBy: '',
    value: formatMs(DRAIN_MS),
    source: '`DRAIN_MS`, src/grade/run/program-machine.ts',
  },
  {
    what: 'a running case hands the rest of its batch to a fresh process after',
    setBy: '',
    value: `${formatMs(RELEASE_AFTER_MS)}, or ${RELEASE_FACTOR} × its expected time`,
    source: '`RELEASE_AFTER_MS`, `RELEASE_FACTOR`, src/grade/run/batch-machine.ts',
  },
  {
    what: 'program processes at once',
    setBy: '`--jobs <n>`',
    value: `cores − 1 (at least 1), one more per ${formatMs(WORK_PER_JOB_MS)} of work, at most ${MAX_JOBS_PER_CORE} per core`,
    source: '`WORK_PER_JOB_MS`, `MAX_JOBS_PER_CORE`, src/grade/run/default-jobs.ts',
  },
  {
    what: 'submissions graded at once in a class run, one program process each',
    setBy: '`--jobs <n>`',
    value: `${MAX_JOBS_PER_CORE} per core`,
    source: '`defaultClassJobs`, `MAX_JOBS_PER_CORE`, src/grade/run/default-jobs.ts',
  },
  {
    what: 'program processes at once in watch mode',
    setBy: '`--jobs <n>`',
    value: `one per core, at most ${MAX_WATCH_JOBS}`,
    source: '`MAX_WATCH_JOBS`, src/grade/run/default-jobs.ts',
  },
  {
    what: '`record`: calls in a tool case; turns in a loop case',
    setBy: '`--max-calls <n>`',
    value: `${DEFAULT_MAX_CALLS}; ${DEFAULT_MAX_TURNS}`,
    source: '`DEFAULT_MAX_CALLS`, `DEFAULT_MAX_TURNS`, src/record/record-types.ts',
  },
  {
    what: '`record`: a recorded Bash call in a replay',
    setBy: '',
    value: formatMs(REPLAY_BASH_MS),
    source: '`REPLAY_BASH_MS`, src/record/record-transcripts.ts',
  },
  {
    what: '`record`: a command slower than this in a replay is not kept',
    setBy: '',
    value: formatMs(SLOW_CALL_MS),
    source: '`SLOW_CALL_MS`, src/record/replay/judge-window.ts',
  },
];

// The rows as a Markdown table, as docs/commands.md holds it between its markers.
export function renderDefaultsTable(rows: readonly DefaultRow[] = DEFAULT_ROWS): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|');
  return [
    '| what | set by | default or limit | in the code |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${cell(r.what)} | ${cell(r.setBy)} | ${cell(r.value)} | ${cell(r.source)} |`),
  ].join('\n');
}

export const DEFAULTS_START = '<!-- defaults:start -->';
export const DEFAULTS_END = '<!-- defaults:end -->';

// A page with the table between its markers replaced by `table`; undefined when the markers are missing.
export function withDefaultsTable(page: string, table = renderDefaultsTable()): string | undefined {
  const from = page.indexOf(DEFAULTS_START);
  const to = page.indexOf(DEFAULTS_END);
  if (from === -1 || to < from) return undefined;
  return `${page.slice(0, from + DEFAULTS_START.length)}\n${table}\n${page.slice(to)}`;
}
