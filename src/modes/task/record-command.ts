// `theinference record <session.jsonl>… --stage delegate-task`: each Claude Code session read with its subagents
// (record/task-sessions.ts), every loop whose model called Task a case (two, when the first call is not in its first
// turn), private data redacted, passed by the privacy gate, snapshotted by the reference task loop and written as
// `record` writes cases (never over a different case without --force; --dry-run writes nothing).
import { hostname, userInfo } from 'node:os';
import { basename, resolve } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { makeRedactor } from '../../record/map/redact.ts';
import { identityOfCalls, joinIdentities, type Identity } from '../../record/map/identity.ts';
import { describeRefusals, gateFiles } from '../../record/write/privacy-gate.ts';
import { formatCase, writeCases } from '../../record/write/write-cases.ts';
import { useColor, write, type CommandIo, type Outcome } from '../../cli/commands/io.ts';
import { progressOn } from '../../cli/commands/progress-line.ts';
import { snapshotLine } from '../../record/write/render-progress.ts';
import { redactionWords } from '../../record/write/render-report.ts';
import { transcriptFileProblem } from '../../record/import-transcript.ts';
import { painter } from '../../grade/report/paint.ts';
import { visibleLine } from '../../grade/report/visible-text.ts';
import { checkSharedFlags, refuseToolCaseFlags, type RecordFlags } from '../../cli/commands/record-flags.ts';
import type { ModeRecorder } from '../../cli/commands/mode-recorder.ts';
import { baseName } from '../loop/record/loop-cases.ts';
import { toolUses } from '../loop/record/recorded-loop.ts';
import { snapshotLoopCases } from '../loop/record/snapshot-loop-cases.ts';
import type { TaskCaseData } from './case.ts';
import { readTaskSession, type TaskDraft, type TaskSession } from './record/task-sessions.ts';
import { mapStrings } from '../kit.ts';

export const recorder: ModeRecorder = { record: recordTaskCommand, replaysTools: false };

type Read = { file: string; read: TaskSession; drafts: (TaskDraft & { redacted: Record<string, number> })[] };

export async function recordTaskCommand(flags: RecordFlags, io: CommandIo): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  await refuseToolCaseFlags(flags, await requireStage(root, flags.stage));
  if (flags.operands.length === 0)
    throw new HarnessError(
      'BAD_FLAG',
      `name at least one Claude Code session to record: theinference record <session.jsonl>… --stage ${flags.stage}`,
    );
  if (flags.format !== undefined && flags.format !== 'claude-code')
    throw new HarnessError(
      'BAD_FLAG',
      `--stage ${flags.stage} reads Claude Code sessions with their subagents (--format claude-code); got '${flags.format}'`,
    );
  const shared = await checkSharedFlags(flags, io);
  const me = userInfo();
  const machine = me.username === '' ? { host: hostname() } : { user: me.username, home: me.homedir, host: hostname() };
  const all: Read[] = [];
  const identities: Identity[] = [];
  for (const given of flags.operands) {
    const { read, sources } = await readOne(given, flags, io, machine, shared.redact);
    identities.push(sources);
    all.push(read);
  }
  const drafts = all.flatMap((r) => r.drafts);
  // The reference runs every case, seconds for a long session: a terminal sees how far it is.
  const progress = progressOn(io.stderr);
  const { snapshots, failed, warnings } = await snapshotLoopCases(
    drafts.map((d) => ({ name: d.name, data: d.data, redacted: d.redacted, differs: [] })),
    {
      root,
      stage: flags.stage,
      env: io.env,
      sandbox: shared.sandbox,
      ...(io.signal === undefined ? {} : { signal: io.signal }),
      ...(progress === undefined
        ? {}
        : { onProgress: (done, of) => progress.show(snapshotLine(done, of), done >= of) }),
    },
  ).finally(() => progress?.clear());
  for (const warning of warnings) await write(io.stderr, `warning: ${warning}\n`);
  const { cases: written } = await writeCases(
    drafts
      .filter((d) => !failed.has(d.name))
      .map((d) => ({ name: d.name, data: d.data, results: [], snapshotText: snapshots.get(d.name) ?? '' })),
    {
      dir: shared.dir,
      stage: flags.stage,
      force: flags.force === true,
      dryRun: flags.dryRun === true,
      sets: [],
      privacy: joinIdentities(identities),
    },
  );
  const p = painter(useColor(io));
  const lines = [
    ...all.flatMap((r) => report(r, failed)),
    ...written.map((c) => {
      const colour = c.status === 'refused' ? p.red : c.status === 'unchanged' ? p.dim : p.green;
      return `${colour(c.status.padEnd(14))}cases/${flags.stage}/${c.name}.json, snapshots/${flags.stage}/${c.name}.json`;
    }),
  ];
  // Redacted as the cases are, each quoted prompt on one visible line: the report ends up in CI logs.
  const screen = makeRedactor({ ...joinIdentities(identities), patterns: shared.redact }).text;
  const dry =
    flags.dryRun === true
      ? written
          .filter((c) => c.status !== 'unchanged')
          .map((c) => `--- cases/${flags.stage}/${c.name}.json\n${c.caseText}`)
          .join('')
      : '';
  await write(io.stdout, `${dry}${screen(lines.join('\n'))}\n`);
  const refused = written.filter((c) => c.status === 'refused');
  if (refused.length > 0)
    throw new HarnessError(
      'BAD_FLAG',
      `${refused.map((c) => c.name).join(', ')}: a case of that name exists with other content; nothing was written. Re-run with --force to replace it, or choose another --name.`,
    );
  if (written.length === 0)
    throw new HarnessError(
      'NO_CASES',
      'no loop of these sessions called Task and ran to its end, so there is no case to write (the report above says why each was skipped)',
    );
  return 'pass';
}

// One session read, its drafts redacted with what identifies this machine and session, and the privacy gate run on
// them: a refusal ends the command before anything is written.
async function readOne(
  given: string,
  flags: RecordFlags,
  io: CommandIo,
  machine: Parameters<typeof identityOfCalls>[2],
  patterns: RegExp[],
): Promise<{ read: Read; sources: Identity & { patterns: RegExp[] } }> {
  const file = resolve(io.cwd, given);
  const problem = await transcriptFileProblem(file);
  if (problem !== undefined) throw new HarnessError('BAD_FLAG', `cannot record ${given}: ${problem}`);
  const read = await readTaskSession(file, flags.name ?? baseName(given)).catch((error: NodeJS.ErrnoException) => {
    throw new HarnessError('BAD_FLAG', `cannot record ${given}: ${error.message}`);
  });
  const uses = read.drafts.flatMap((d) =>
    d.data.turns.flatMap((t) =>
      t.message.content
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({ input: b.input as Record<string, unknown> })),
    ),
  );
  const sources = { ...identityOfCalls(read.session.cwd, uses, machine), patterns };
  const drafts = read.drafts.map((d) => {
    const redactor = makeRedactor(sources);
    const data = mapStrings(described(d, read, basename(file)), redactor.text) as TaskCaseData;
    return { ...d, data, redacted: { ...redactor.counts } };
  });
  const refusals = gateFiles(
    drafts.map((d) => ({ path: `cases/${flags.stage}/${d.name}.json`, text: formatCase(d.data) })),
    sources,
  );
  if (refusals.length > 0)
    throw new HarnessError(
      'CANNOT_WRITE',
      `nothing was written: the privacy gate refused\n${describeRefusals(refusals)}\nAdd --redact for it.`,
    );
  return { read: { file: given, read, drafts }, sources };
}

// The case's description and where its turns came from: the parent's loop, and each child's transcript (or its
// final text alone).
function described(d: TaskDraft, read: TaskSession, transcript: string): TaskCaseData {
  const calls = d.data.turns.flatMap((t) => toolUses(t.message));
  const tasks = calls.filter((c) => c.name === 'task').length;
  const partial = d.children.filter((c) => c.unrecordedCalls !== undefined || c.from.startsWith('its final text'));
  const window = d.name.endsWith('-from-task') ? ', from its first task call on' : '';
  const description =
    `Replays a real Claude Code loop of ${d.data.turns.length} turns${window} with ${tasks} task ${tasks === 1 ? 'call' : 'calls'}: ` +
    `each child starts fresh from its prompt, without task in its tools, and only its last turn's text comes back to the parent.`;
  return {
    ...d.data,
    description,
    source: {
      format: 'claude-code',
      transcript,
      ...(read.session.session === undefined ? {} : { session: read.session.session }),
      defaults: ['system', 'tools', 'max_tokens'],
      turns: 'recorded',
      children: d.children.map((c) => ({
        ...(c.agentId === undefined ? {} : { agent: c.agentId }),
        turns: c.turns.length,
        from: c.from,
        ...(c.unrecordedCalls === undefined ? {} : { unrecorded_calls: c.unrecordedCalls }),
      })),
      ...(partial.length === 0
        ? {}
        : {
            note: 'a child with its final text alone answers in one turn: the turn is the recorded text, its envelope (id, stop_reason) made by the recorder',
          }),
    },
  };
}

function report(r: Read, failed: ReadonlyMap<string, string>): string[] {
  const lines = [
    `${r.file} (claude-code${r.read.session.session === undefined ? '' : `, session ${r.read.session.session}`})`,
  ];
  for (const d of r.drafts) {
    const why = failed.get(d.name);
    const kids = d.children.map((c) => `${c.turns.length} from ${c.from}`).join('; ');
    lines.push(
      `  case      ${d.name}: ${d.data.turns.length} turns; children: ${kids}${why === undefined ? '' : ` (refused: ${why})`}`,
    );
  }
  for (const s of r.read.skipped) lines.push(`  skipped   "${visibleLine(s.prompt)}": ${s.why}`);
  if (r.drafts.length === 0 && r.read.skipped.length === 0) lines.push('  skipped   every loop: none called Task');
  const redacted = Object.entries(
    r.drafts.reduce<Record<string, number>>((sum, d) => {
      for (const [k, n] of Object.entries(d.redacted)) sum[k] = (sum[k] ?? 0) + n;
      return sum;
    }, {}),
  );
  lines.push(`  redacted  ${redactionWords(Object.fromEntries(redacted))}`, '');
  return lines;
}
