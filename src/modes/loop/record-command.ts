// `theinference record <transcript>… --stage agent-loop`: each transcript read as loops (src/modes/loop/record/), every
// loop that ran to its end a case, snapshotted by the reference loop and written as `record` writes cases (never
// over a different case without --force; --dry-run writes nothing). Claude Code sessions, live captures and
// Anthropic API logs are read.
import { hostname, userInfo } from 'node:os';
import { basename, resolve } from 'node:path';
import { HarnessError } from '../../errors.ts';
import { packageRoot, requireStage } from '../../course/stages.ts';
import { LOOP_FORMATS, readLoops } from './record/read-loops.ts';
import { baseName, loopCases, type LoopCaseDraft } from './record/loop-cases.ts';
import { parallelTurns, toolUses, type LoopSession } from './record/recorded-loop.ts';
import { snapshotLoopCases } from './record/snapshot-loop-cases.ts';
import { makeRedactor } from '../../record/map/redact.ts';
import { transcriptFileProblem } from '../../record/import-transcript.ts';
import { identityOfCalls, joinIdentities, type Identity } from '../../record/map/identity.ts';
import { describeRefusals, gateFiles } from '../../record/write/privacy-gate.ts';
import { formatCase, writeCases } from '../../record/write/write-cases.ts';
import { useColor, write, type CommandIo, type Outcome } from '../../cli/commands/io.ts';
import { progressOn } from '../../cli/commands/progress-line.ts';
import { snapshotLine } from '../../record/write/render-progress.ts';
import { redactionWords } from '../../record/write/render-report.ts';
import { painter } from '../../grade/report/paint.ts';
import { visibleLine } from '../../grade/report/visible-text.ts';
import { checkSharedFlags, refuseToolCaseFlags, type RecordFlags } from '../../cli/commands/record-flags.ts';
import type { ModeRecorder } from '../../cli/commands/mode-recorder.ts';
import type { RedactedCase } from '../../cli/redact/redact-case.ts';
import type { LoopCaseData } from './case.ts';
import type { RedactionSources } from '../../record/map/redact.ts';
import { keepFaithfulStreams } from './record/redact-streams.ts';
import { DEFAULT_MAX_TURNS } from '../../record/record-types.ts';

// A loop's cases replay the model's turns with the tool outputs as recorded: no sandbox, no command replayed.
export const recorder: ModeRecorder = {
  record: recordLoopCommand,
  replaysTools: false,
  redacted: faithfulStreams,
};

type ReadTranscript = { file: string; session: LoopSession; drafts: LoopCaseDraft[] };

// What a stage built on this mode makes of a transcript's loop cases (src/modes/compact/record-command.ts): its own
// cases from them, given the file they were read from and the redaction every string of a case goes through.
// The privacy gate and the reference's snapshots come after it, as for the loop's own.
export type ShapeCases = (read: {
  file: string;
  session: LoopSession;
  drafts: LoopCaseDraft[];
  redact: (text: string) => string;
}) => Promise<LoopCaseDraft[]>;
type Shared = Awaited<ReturnType<typeof checkSharedFlags>>;

// `shape`: what a later loop stage makes of a session before its loops are cases (`session`: src/modes/plan/, its
// todo tool for the recording's, only the loops that plan), and of the cases once made (`cases`:
// src/modes/compact/). Each as read when absent.
export type LoopShape = { session?: (session: LoopSession) => LoopSession; cases?: ShapeCases };

export async function recordLoopCommand(flags: RecordFlags, io: CommandIo, shape: LoopShape = {}): Promise<Outcome> {
  const root = io.root ?? packageRoot();
  const shared = await checkLoopFlags(flags, io, root);
  const maxTurns = flags.maxCalls === undefined ? DEFAULT_MAX_TURNS : shared.maxCalls;
  const me = userInfo();
  const read: ReadTranscript[] = [];
  const identities: Identity[] = [];
  for (const given of flags.operands) {
    const { transcript, sources } = await readTranscript(given, { flags, io, shared, maxTurns, me, shape });
    identities.push(sources);
    read.push(transcript);
  }
  const all = read.flatMap((r) => r.drafts);
  // The reference runs every case, seconds for a long session: a terminal sees how far it is.
  const progress = progressOn(io.stderr);
  const { snapshots, failed, warnings } = await snapshotLoopCases(all, {
    root,
    stage: flags.stage,
    env: io.env,
    sandbox: shared.sandbox,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    ...(progress === undefined ? {} : { onProgress: (done, of) => progress.show(snapshotLine(done, of), done >= of) }),
  }).finally(() => progress?.clear());
  io.signal?.throwIfAborted();
  for (const warning of warnings) await write(io.stderr, `warning: ${warning}\n`);
  const ready = all
    .filter((d) => !failed.has(d.name))
    .map((d) => ({ name: d.name, data: d.data, results: [], snapshotText: snapshots.get(d.name) ?? '' }));
  // No set is replaced as a whole: a loop case no recording makes again stays.
  const { cases: written } = await writeCases(ready, {
    dir: shared.dir,
    stage: flags.stage,
    force: flags.force === true,
    dryRun: flags.dryRun === true,
    sets: [],
    privacy: joinIdentities(identities),
  });
  const p = painter(useColor(io));
  const lines = [
    ...read.flatMap((r) => transcriptReport(r, failed)),
    ...written.map((c) => {
      const colour = c.status === 'refused' ? p.red : c.status === 'unchanged' ? p.dim : p.green;
      return `${colour(c.status.padEnd(14))}cases/${flags.stage}/${c.name}.json, snapshots/${flags.stage}/${c.name}.json`;
    }),
  ];
  // The report quotes the sessions (a skipped loop's prompt): redacted as the cases are, since it ends up in CI
  // logs, and each prompt made visible on one line (visible-text.ts) so that nothing in it acts on a terminal.
  const screen = makeRedactor({ ...joinIdentities(identities), patterns: shared.redact }).text;
  await write(
    io.stdout,
    `${
      flags.dryRun === true
        ? written
            .filter((c) => c.status !== 'unchanged')
            .map((c) => `--- cases/${flags.stage}/${c.name}.json\n${c.caseText}`)
            .join('')
        : ''
    }${screen(lines.join('\n'))}\n`,
  );
  refuseUnwritten(written);
  return 'pass';
}

// The stage, the operands and the format this recorder reads, then the flags every recorder shares.
async function checkLoopFlags(flags: RecordFlags, io: CommandIo, root: string): Promise<Shared> {
  await refuseToolCaseFlags(flags, await requireStage(root, flags.stage));
  if (flags.operands.length === 0)
    throw new HarnessError(
      'BAD_FLAG',
      'name at least one transcript to record: theinference record <transcript>… --stage agent-loop',
    );
  if (flags.format !== undefined && !(LOOP_FORMATS as readonly string[]).includes(flags.format)) {
    throw new HarnessError(
      'BAD_FLAG',
      `--stage ${flags.stage} reads Claude Code sessions, live captures and Anthropic API logs (--format claude-code, live or anthropic); got '${flags.format}'`,
    );
  }
  return checkSharedFlags(flags, io);
}

// One transcript read as loops, those over --max-calls skipped, each kept loop a draft case redacted and passed by
// the privacy gate (or the whole recording refused before anything is written).
async function readTranscript(
  given: string,
  ctx: {
    flags: RecordFlags;
    io: CommandIo;
    shared: Shared;
    maxTurns: number;
    me: { username: string; homedir: string };
    shape: LoopShape;
  },
): Promise<{ transcript: ReadTranscript; sources: Identity }> {
  const { flags, io, shared, maxTurns, me, shape } = ctx;
  const file = resolve(io.cwd, given);
  const problem = await transcriptFileProblem(file);
  if (problem !== undefined) throw new HarnessError('BAD_FLAG', `cannot record ${given}: ${problem}`);
  const read = await readLoops(file, flags.format as LoopSession['format'] | undefined).catch(
    (error: NodeJS.ErrnoException) => {
      throw new HarnessError('BAD_FLAG', `cannot record ${given}: ${error.message}`);
    },
  );
  const session = shape.session === undefined ? read : shape.session(read);
  for (const loop of session.loops.filter((l) => l.turns.length > maxTurns)) {
    session.skipped.push({ prompt: loop.prompt, why: `${loop.turns.length} turns, over --max-calls ${maxTurns}` });
  }
  session.loops = session.loops.filter((l) => l.turns.length <= maxTurns);
  const uses = session.loops.flatMap((l) =>
    l.turns.flatMap((t) =>
      t.message.content
        .filter((b) => b.type === 'tool_use')
        .map((b) => ({ input: b.input as Record<string, unknown> })),
    ),
  );
  const machine = me.username === '' ? { host: hostname() } : { user: me.username, home: me.homedir, host: hostname() };
  const sources = { ...identityOfCalls(session.cwd, uses, machine), patterns: shared.redact };
  const base = flags.name ?? baseName(given);
  const loopDrafts = loopCases(session, { base, transcript: basename(file), sources });
  // A stream holding a redacted string in pieces would still serve it: such a stream is dropped.
  for (const [i, d] of loopDrafts.entries()) {
    const turns = session.loops[i]?.turns ?? [];
    const { data, dropped } = await keepFaithfulStreams({ ...d.data, turns }, d.data, makeRedactor(sources).text);
    if (dropped.length > 0) Object.assign(d, { data, streamsDropped: dropped });
  }
  const drafts =
    shape.cases === undefined
      ? loopDrafts
      : await shape.cases({ file, session, drafts: loopDrafts, redact: makeRedactor(sources).text });
  const refusals = gateFiles(
    drafts.map((d) => ({ path: `cases/${flags.stage}/${d.name}.json`, text: formatCase(d.data) })),
    sources,
  );
  if (refusals.length > 0)
    throw new HarnessError(
      'CANNOT_WRITE',
      `nothing was written: the privacy gate refused\n${describeRefusals(refusals)}\nAdd --redact for it.`,
    );
  return { transcript: { file: given, session, drafts }, sources };
}

// The report's lines for one transcript: its loops, each case with its notes, what was skipped, defaulted, redacted.
function transcriptReport(r: ReadTranscript, failed: ReadonlyMap<string, string>): string[] {
  const lines: string[] = [];
  lines.push(
    `${r.file} (${r.session.format}${r.session.session === undefined ? '' : `, session ${r.session.session}`})`,
  );
  const loops = r.session.loops.length + r.session.skipped.length;
  lines.push(`  loops     ${loops} seen, ${r.drafts.filter((d) => !failed.has(d.name)).length} kept as cases`);
  for (const d of r.drafts) lines.push(...caseReport(d, failed.get(d.name)));
  for (const s of r.session.skipped) lines.push(`  skipped   "${visibleLine(s.prompt)}": ${s.why}`);
  const defaults = [...new Set(r.drafts.flatMap((d) => (d.data.source?.defaults as string[] | undefined) ?? []))];
  if (defaults.length > 0)
    lines.push(`  defaults  ${defaults.join(', ')}: not in the recording (docs/recording.md, "Loop cases")`);
  const redacted = Object.entries(
    r.drafts.reduce<Record<string, number>>((sum, d) => {
      for (const [k, n] of Object.entries(d.redacted)) sum[k] = (sum[k] ?? 0) + n;
      return sum;
    }, {}),
  );
  lines.push(`  redacted  ${redactionWords(Object.fromEntries(redacted))}`, '');
  return lines;
}

// One case's line, and its notes when a stream was dropped or the recording's agent strayed from the contract.
function caseReport(d: LoopCaseDraft, why: string | undefined): string[] {
  const turns = d.data.turns;
  const calls = turns.flatMap((t) => toolUses(t.message)).length;
  const parallel = parallelTurns({ turns } as never);
  return [
    `  case      ${d.name}: ${turns.length} turns, ${calls} tool calls, ${parallel} in parallel${why === undefined ? '' : ` (refused: ${why})`}`,
    ...(d.streamsDropped === undefined
      ? []
      : [
          `  note      ${d.name}: the recorded stream of turn ${d.streamsDropped.map((t) => t + 1).join(', ')} held what was redacted in pieces over its events, so it was dropped (a streaming loop gets events made from the redacted turn)`,
        ]),
    ...(d.differs.length === 0
      ? []
      : [
          `  note      ${d.name}: the recording's agent sent request ${d.differs.join(', ')} otherwise than a loop keeping to the contract (the snapshot is the reference loop's)`,
        ]),
  ];
}

// A case refused (another of its name exists) or no case at all fails the command, after the report is out.
function refuseUnwritten(written: readonly { name: string; status: string }[]): void {
  if (written.some((c) => c.status === 'refused')) {
    throw new HarnessError(
      'BAD_FLAG',
      `${written
        .filter((c) => c.status === 'refused')
        .map((c) => c.name)
        .join(
          ', ',
        )}: a case of that name exists with other content; nothing was written. Re-run with --force to replace it, or choose another --name.`,
    );
  }
  if (written.length === 0)
    throw new HarnessError(
      'NO_CASES',
      'no loop of these transcripts made a case, so there is none to write (the report above says why each was skipped)',
    );
}

// A redacted loop case whose recorded streams the redaction left unfaithful (record/redact-streams.ts) without them.
async function faithfulStreams(recorded: unknown, r: RedactedCase, sources: RedactionSources): Promise<RedactedCase> {
  const redacted = JSON.parse(r.caseText) as LoopCaseData;
  const { data, dropped } = await keepFaithfulStreams(recorded as LoopCaseData, redacted, makeRedactor(sources).text);
  return dropped.length === 0 ? r : { ...r, caseText: formatCase(data), streamsDropped: dropped };
}
