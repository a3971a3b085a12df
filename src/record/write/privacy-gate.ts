// The privacy gate: the one check every file the recorder or `theinference redact` writes passes first (a case, its
// snapshot, its pending snapshot, its recording), and that `theinference snapshot --check` runs over a recorded
// suite. It looks for what redaction (src/record/map/redact.ts) removes: the recording machine's home directory in
// every encoding, its user names where they name the machine (a path, a prompt, `USER=`, the owner column of
// `ls -l`), its host names, a dash-encoded home (`-Users-alice-shop`), and the shapes of keys, tokens, JWTs, URL
// credentials, private keys and real e-mail addresses. A JSON file is looked at string by string, as it was
// redacted (a line-based rule such as an `ls -l` owner sees the string's lines, not the file's escaped `\n`).
// A file with a finding is not written, and the finding is named, escaped (it may hold anything a transcript did).
// Pure.
import type { Identity } from '../map/identity.ts';
import { leakFinder } from '../map/redact.ts';
import { visibleLine } from '../../grade/report/visible-text.ts';

// A file about to be written, its path relative to the course directory.
export type GatedFile = { path: string; text: string };

// A file the gate stops, and what it found there.
export type PrivacyRefusal = { path: string; found: string[] };

// The longest a finding is quoted.
const MAX_FINDING = 80;

// What of the machine, or of a secret, a text holds (empty: nothing), each named once and escaped.
export function privacyFindings(text: string, who: Identity): string[] {
  const found = new Set<string>();
  const find = leakFinder(who);
  for (const s of stringsOf(text)) for (const f of find(s)) found.add(shown(f));
  return [...found];
}

// The files the gate stops, in the order given.
export function gateFiles(files: GatedFile[], who: Identity): PrivacyRefusal[] {
  return files.map((f) => ({ path: f.path, found: privacyFindings(f.text, who) })).filter((r) => r.found.length > 0);
}

// The refusals as one message: each file and what it would carry.
export function describeRefusals(refusals: PrivacyRefusal[]): string {
  return refusals.map((r) => `${visibleLine(r.path)}: it would carry ${r.found.join(', ')}`).join('\n');
}

// A finding as the report may show it: escaped, one line, cut short.
function shown(finding: string): string {
  const line = visibleLine(finding);
  return line.length > MAX_FINDING ? `${line.slice(0, MAX_FINDING)}…` : line;
}

// Every string of a JSON text (keys and values), or the text itself when it is no JSON.
function stringsOf(text: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [text];
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        out.push(k);
        walk(x);
      }
  };
  walk(value);
  return out;
}
