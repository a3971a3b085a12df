// The library API for agents written in the course: `recordExecute(execute, options)` wraps a course agent's
// `execute` and records each `(name, input)` call and its result as it happens, plus the workspace as it was when
// the recording started (the seed). `finish()` ends the session: the calls go through the same pipeline as
// `theinference record` (mapping, <sandbox> paths, replay through the reference, cases and snapshots, the report).
//
//   const execute = await recordExecute(makeExecute(new Tools(workspace)), { workspace, stage: 'register-tools' });
//   … the agent loop calls execute(name, input) …
//   const { report } = await execute.finish();
import { hostname, userInfo } from 'node:os';
import { resolve } from 'node:path';
import { requireReference } from '../../course/reference.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { chooseSandbox } from '../../grade/run/isolation/choose-sandbox.ts';
import type { IsolationMode } from '../../grade/run/isolation/isolation-mode.ts';
import { DEFAULT_MAX_CALLS, type BashMode } from '../record-types.ts';
import { recordTranscripts } from '../record-transcripts.ts';
import { renderRecordReport } from '../write/render-report.ts';
import { makeRedactor } from '../map/redact.ts';
import type { ImportedCall, ImportedTranscript } from '../types.ts';
import type { WrittenCase } from '../write/write-cases.ts';
import { snapshotWorkspace } from './snapshot-workspace.ts';

// What a course's `execute` returns (src/tools/types.ts's ToolOutput, and any richer object).
type Output = { content: string; is_error?: boolean };
type AnyExecute = (name: string, input: any) => Output | Promise<Output>;

export type RecordExecuteOptions = {
  // The directory the tools work in (`new Tools(workspace)`): its files now are the seed, its path becomes <sandbox>.
  workspace: string;
  stage: string;
  // The course directory the cases and snapshots go into (default: the current directory).
  dir?: string;
  // The case name (default: recorded-execute-<time the recording started>).
  name?: string;
  maxCalls?: number;
  bash?: BashMode;
  redact?: RegExp[];
  // Replace an existing case whose content differs (else nothing is written and `refused` names it).
  force?: boolean;
  // Write nothing; the outcome says what would be written.
  dryRun?: boolean;
  // The theinference package whose reference replays the calls (default: this one).
  root?: string;
  // Whether the replays run in the OS sandbox, as `record --isolation` (default: auto, required when CI is set);
  // `auto` without a sandbox puts its warning at the top of the report.
  isolation?: IsolationMode;
  env?: NodeJS.ProcessEnv;
};

export type RecordExecuteOutcome = {
  cases: WrittenCase[];
  // Case names that exist with other content (nothing was written).
  refused: string[];
  // The report `theinference record` prints, without colour.
  report: string;
};

// The wrapped execute: the same function, plus what it recorded and the way to end the session.
export type RecordingExecute<E extends AnyExecute> = E & {
  // The calls recorded so far, in the order they were made.
  readonly calls: readonly ImportedCall[];
  // Ends the recording and writes the case(s); later calls still run but are not recorded. Safe to call twice.
  finish: () => Promise<RecordExecuteOutcome>;
};

// Wraps `execute` once the workspace is snapshotted; resolves to a drop-in replacement for it.
export async function recordExecute<E extends AnyExecute>(
  execute: E,
  options: RecordExecuteOptions,
): Promise<RecordingExecute<E>> {
  const workspace = resolve(options.workspace);
  const snapshot = await snapshotWorkspace(workspace);
  const startedAt = new Date();
  const calls: ImportedCall[] = [];
  let finished: Promise<RecordExecuteOutcome> | undefined;

  const recording = async (name: string, input: any): Promise<Output> => {
    if (finished !== undefined) return execute(name, input);
    // The input as the model sent it, before the tools could touch it.
    const call: ImportedCall = {
      id: `call-${calls.length + 1}`,
      name,
      input: structuredClone(input ?? {}),
      timestamp: new Date().toISOString(),
      cwd: workspace,
      file: 'recordExecute',
      line: calls.length + 1,
    };
    calls.push(call);
    try {
      const output = await execute(name, input);
      call.result = { content: String(output.content), isError: output.is_error === true, line: call.line };
      return output;
    } catch (error) {
      // A throw reaches the agent unchanged; the case shows it as the error it was.
      call.result = {
        content: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        isError: true,
        line: call.line,
      };
      throw error;
    }
  };

  const finish = (): Promise<RecordExecuteOutcome> =>
    (finished ??= (async () => {
      const root = options.root ?? packageRoot();
      await requireStage(root, options.stage);
      await requireReference(root, 'record');
      const env = options.env ?? process.env;
      const isolation = await chooseSandbox(options.isolation, env);
      const transcript: ImportedTranscript = {
        format: 'live',
        files: [`execute-${startedAt.toISOString().slice(0, 19).replace('T', '-').replaceAll(':', '')}`],
        startedAt: startedAt.toISOString(),
        endedAt: new Date().toISOString(),
        cwd: workspace,
        calls: calls.filter((c) => c.result !== undefined),
        skipped: [],
        workspace: snapshot.files,
      };
      const me = userInfo();
      const outcome = await recordTranscripts([transcript], {
        stage: options.stage,
        ...(options.name === undefined ? {} : { name: options.name }),
        maxCalls: options.maxCalls ?? DEFAULT_MAX_CALLS,
        bash: options.bash ?? 'reproducible',
        redact: options.redact ?? [],
        machine: { user: me.username, home: me.homedir, host: hostname() },
        root,
        dir: resolve(options.dir ?? '.'),
        dryRun: options.dryRun === true,
        force: options.force === true,
        env,
        sandbox: isolation.sandbox,
      });
      const warnings = [isolation.warning, ...outcome.warnings]
        .filter((w) => w !== undefined)
        .map((w) => `warning: ${w}\n`);
      // Redacted as the files are: the report quotes the session.
      const report = makeRedactor(outcome.privacy).text(
        warnings.join('') +
          renderRecordReport(outcome.reports, outcome.cases, {
            stage: options.stage,
            color: false,
            stale: outcome.stale,
          }),
      );
      return { cases: outcome.cases, refused: outcome.refused, report };
    })());

  return Object.assign(recording as E, { calls, finish });
}
