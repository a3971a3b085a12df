// The recording pipeline's entry point: imported transcripts in, replay-verified cases (written into the course
// directory unless dryRun) and a report per transcript out. `theinference record` calls it after importing the
// files it was given; `theinference record --live` after capturing a session.
//
//   steps (prepare-steps.ts) -> cases (build-cases.ts, replayed by replay-pool.ts) -> names, descriptions and
//   sources (describe-case.ts) -> repeats and privacy (case-noise.ts, redact.ts) -> snapshots and files
//   (write-cases.ts) -> report
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import type { ImportedTranscript } from './types.ts';
import type { CaseDraft, RecordOptions, TranscriptReport } from './record-types.ts';
import { buildCases, type Built, candidates } from './replay/build-cases.ts';
import { caseFileFor, defaultName } from './write/describe-case.ts';
import { readFilesFrom, readWorkspace } from './seed/files-from.ts';
import { prepareSteps, type Step } from './map/prepare-steps.ts';
import { makeRedactor, type RedactionSources, type Redactor } from './map/redact.ts';
import { identityOf, joinIdentities } from './map/identity.ts';
import { privacyFindings } from './write/privacy-gate.ts';
import { readCachedBuild, referenceIdentity, replayKey, writeCachedBuild } from './replay/replay-cache.ts';
import { replayPool } from './replay/replay-pool.ts';
import { repeatedCases } from './write/case-noise.ts';
import { recordedBefore } from './write/case-set.ts';
import { reportFor } from './write/report.ts';
import {
  formatCase,
  snapshotCases,
  type StaleCase,
  writeCases,
  type NamedCase,
  type WrittenCase,
} from './write/write-cases.ts';
import { recordingOf } from './write/recording-of.ts';
import { formatRecording } from '../course/recording-file.ts';

// The longest a recorded Bash call may run in a replay: past it, the call is a timeout and not kept.
export const REPLAY_BASH_MS = 5_000;

// Everything one run of the pipeline did.
export type RecordOutcome = {
  cases: WrittenCase[];
  // Cases of the sets this run replaced that it did not make again: removed with --force, else refused.
  stale: StaleCase[];
  reports: TranscriptReport[];
  // Cases that exist with other content, and stale ones (not written or removed without --force; then nothing
  // was written).
  refused: string[];
  // What the user should know beyond the report: a temp dir that could not be removed.
  warnings: string[];
  // Who recorded, every transcript's machine together: the report on screen is redacted by the same rules as
  // the files (it ends up in CI logs).
  privacy: RedactionSources;
  // When cases recorded before hold every call of every case this run made (so it wrote none), their names.
  heldBefore?: string[];
};

type Worked = {
  transcript: ImportedTranscript;
  steps: Step[];
  built: Built;
  redactor: Redactor;
  sources: RedactionSources;
  // The replay was an earlier run's, of the same transcript with the same options and reference.
  reused: boolean;
};

function pick<T extends object, K extends keyof T>(object: T, keys: K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, object[k]])) as Pick<T, K>;
}

type Named = { c: NamedCase; w: Worked; draft: CaseDraft; base: string };

// Records every transcript: their cases are named, checked, snapshotted and written together.
export async function recordTranscripts(
  transcripts: ImportedTranscript[],
  options: RecordOptions,
): Promise<RecordOutcome> {
  const warnings: string[] = [];
  const worked = await replayTranscripts(transcripts, options, warnings);
  const named = nameCases(worked, options.name);
  const sets = [...new Set(named.map((n) => n.base))];
  const repeats = repeatedCases(
    named.map(({ c }) => c),
    await recordedBefore(options.dir, options.stage, sets),
  );
  const rejected = new Map([...repeats].map(([name, r]) => [name, r.why]));
  const recordings = gateRecorded(named, rejected);
  const snapshots = await snapshotKept(named, rejected, options, warnings);
  const ready = named
    .filter(({ c }) => !rejected.has(c.name))
    .map(({ c }) => ({ ...c, snapshotText: snapshots.get(c.name) ?? '', recordingText: recordings.get(c.name) ?? '' }));
  const privacy = joinIdentities(worked.map((w) => w.sources));
  const { cases, stale } = await writeCases(ready, {
    dir: options.dir,
    stage: options.stage,
    force: options.force,
    dryRun: options.dryRun,
    sets,
    privacy,
  });

  const reports = worked.map((w) =>
    reportFor(w, {
      cases: named
        .filter((n) => n.w === w)
        .map(({ c, draft }) => ({ name: c.name, draft, rejected: rejected.get(c.name) })),
    }),
  );
  const refused = [...cases, ...stale].filter((c) => c.status === 'refused').map((c) => c.name);
  const held = named.map(({ c }) => repeats.get(c.name)?.recordedBefore ?? []);
  const heldBefore = held.length > 0 && held.every((h) => h.length > 0) ? [...new Set(held.flat())].sort() : undefined;
  return {
    cases,
    stale,
    reports,
    refused,
    warnings,
    privacy: { ...privacy, patterns: options.redact },
    ...(heldBefore === undefined ? {} : { heldBefore }),
  };
}

// Every transcript's steps replayed into cases by one pool of workers (or an earlier run's replay of it reused);
// the pool is closed on any way out, and what closing it could not clean up is a warning.
async function replayTranscripts(
  transcripts: ImportedTranscript[],
  options: RecordOptions,
  warnings: string[],
): Promise<Worked[]> {
  const pool = replayPool({
    root: options.root,
    env: options.env,
    sandbox: options.sandbox,
    size: Math.min(2, availableParallelism()),
    boundMs: REPLAY_BASH_MS,
  });
  // Ctrl-C kills the workers at once, with the commands they are replaying; the replays in flight then fail and
  // the next window sees the signal.
  const stop = (): void => void pool.close();
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    const given = options.filesFrom === undefined ? undefined : readFilesFrom(options.filesFrom);
    const prepared = transcripts.map((transcript) => {
      const sources = redactionSources(transcript, options);
      const redactor = makeRedactor(sources);
      return { transcript, sources, redactor, steps: prepareSteps(transcript, redactor) };
    });
    const of = prepared.reduce((n, p) => n + candidates(p.steps, options.bash), 0);
    let replayed = 0;
    const advance = (n: number, transcript: string): void => {
      replayed += n;
      options.onProgress?.({ replayed, of, transcript });
    };
    // --files-from is a directory the key cannot see into: its replays are not kept.
    const reference = given === undefined ? await referenceIdentity(options.root) : undefined;
    return await Promise.all(prepared.map((p) => replayTranscript(p, { options, pool, given, reference, advance })));
  } finally {
    options.signal?.removeEventListener('abort', stop);
    warnings.push(...(await pool.close()));
  }
}

// One transcript's cases: an earlier run's replay of it when the cache holds one, else replayed now (and kept).
async function replayTranscript(
  { transcript, sources, redactor, steps }: Omit<Worked, 'built' | 'reused'>,
  how: {
    options: RecordOptions;
    pool: ReturnType<typeof replayPool>;
    given: ReturnType<typeof readFilesFrom> | undefined;
    reference: Awaited<ReturnType<typeof referenceIdentity>> | undefined;
    advance: (n: number, transcript: string) => void;
  },
): Promise<Worked> {
  const { options, pool, given, reference, advance } = how;
  const filesFrom = given ?? (transcript.workspace === undefined ? undefined : readWorkspace(transcript.workspace));
  const name = basename(transcript.files[0] ?? '');
  const key =
    reference === undefined
      ? undefined
      : replayKey({
          reference,
          transcript,
          sources,
          ...pick(options, ['sandbox', 'maxCalls', 'bash']),
          REPLAY_BASH_MS,
        });
  const cached = key === undefined ? undefined : await readCachedBuild(options.dir, key);
  if (cached !== undefined) {
    advance(candidates(steps, options.bash), name);
    return { transcript, steps, built: cached, redactor, sources, reused: true };
  }
  const built = await buildCases(steps, {
    maxCalls: options.maxCalls,
    bash: options.bash,
    pool,
    ...(filesFrom === undefined ? {} : { filesFrom }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    onReplayed: () => advance(1, name),
  });
  if (key !== undefined && built.replayed.size > 0) await writeCachedBuild(options.dir, key, built);
  return { transcript, steps, built, redactor, sources, reused: false };
}

// The privacy gate (write/privacy-gate.ts) over each case and its recording: one that would carry the machine
// or a secret is not written, and the report names what it found. Returns each case's recording.
function gateRecorded(named: Named[], rejected: Map<string, string>): Map<string, string> {
  const recordings = new Map(named.map(({ c, w, draft }) => [c.name, formatRecording(recordingOf(draft, w.steps))]));
  for (const { c, w } of named) {
    if (rejected.has(c.name)) continue;
    const found = [
      ...privacyFindings(formatCase(c.data), w.sources),
      ...privacyFindings(recordings.get(c.name) ?? '', w.sources).map((f) => `${f} (in its recording)`),
    ];
    if (found.length > 0) rejected.set(c.name, `it would carry ${found.join(', ')}`);
  }
  return recordings;
}

// The cases not rejected yet snapshotted by the reference; one it could not snapshot, or whose snapshot would
// carry the machine or a secret, is rejected.
async function snapshotKept(
  named: Named[],
  rejected: Map<string, string>,
  options: RecordOptions,
  warnings: string[],
): Promise<Map<string, string>> {
  const toSnapshot = named.filter(({ c }) => !rejected.has(c.name)).map(({ c }) => c);
  const {
    snapshots,
    failed,
    warnings: snapshotWarnings,
  } = await snapshotCases(toSnapshot, {
    root: options.root,
    stage: options.stage,
    env: options.env,
    sandbox: options.sandbox,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.onSnapshotProgress === undefined ? {} : { onProgress: options.onSnapshotProgress }),
  });
  warnings.push(...snapshotWarnings);
  for (const [name, why] of failed) rejected.set(name, why);
  for (const { c, w } of named) {
    const found = privacyFindings(snapshots.get(c.name) ?? '', w.sources);
    if (found.length > 0) rejected.set(c.name, `its snapshot would carry ${found.join(', ')}`);
  }
  return snapshots;
}

// Who recorded, as the transcript shows it where only the machine can be (map/identity.ts) and as the caller
// gives it, and the author's own patterns.
function redactionSources(transcript: ImportedTranscript, options: RecordOptions): RedactionSources {
  return { ...identityOf(transcript, options.machine), patterns: options.redact };
}

// Every draft named: `<name>.json` when its name is used once, `<name>-01.json`, `<name>-02.json`… otherwise; `base`
// is the name of its set.
function nameCases(worked: Worked[], name: string | undefined): Named[] {
  const all = worked.flatMap((w) =>
    w.built.drafts.map((draft) => ({ w, draft, base: name ?? defaultName(w.transcript) })),
  );
  const uses = new Map<string, number>();
  for (const a of all) uses.set(a.base, (uses.get(a.base) ?? 0) + 1);
  const seen = new Map<string, number>();
  return all.map(({ w, draft, base }) => {
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const caseName = (uses.get(base) ?? 0) > 1 ? `${base}-${String(n).padStart(2, '0')}` : base;
    return { c: { name: caseName, data: caseFileFor(draft, w.transcript), results: draft.results }, w, draft, base };
  });
}
