// What a loop-kind mode built on the loop mode changes of it (src/modes/<mode>/ imports the loop mode's files and
// parameterises them with these, never copies them). Each is absent for the loop mode itself. Most are the
// grader's side's (the fake Messages API of ./fake-api.ts, served from ./serve.ts); `around` alone runs on the
// loop's side, in the program process (./driver.ts).
import type { Json } from '../kit.ts';
import type { LoopCase } from './fake-api.ts';

export type LoopOptions = {
  // The keys of a request the fake API records and the results give, in this order: LOOP_REQUEST_KEYS when absent.
  requestKeys?: readonly string[];
  // What the loop is given for a case (it may change it; the results say so): a copy of the case's request when
  // absent. A mode whose cases hold more for the loop (a setting beside the request) gives it here.
  given?: (testCase: LoopCase) => Json;
  // Around each run of the loop, a case's or a probe script's, on the loop's side: what the run needs set up first
  // (a working directory of its own, say), and what its end says beyond how the loop ended (a file the loop wrote),
  // added to the end under `endKeys`. Across the sandbox only those keys of it reach the results.
  // `setup`: what the grader's side gave from the case for it (`setup` below), when it gave anything.
  around?: (run: () => Promise<void>, setup?: Json) => Promise<Json>;
  endKeys?: readonly string[];
  // What of a case the loop's side needs to set a run up (the files a working directory holds before it), taken
  // on the grader's side and sent with the request; nothing when absent.
  setup?: (testCase: LoopCase) => Json | undefined;
  // The tools whose calls the loop answers itself, never through execute (the plan mode's todo, the compact mode's
  // compact): the scripted execute expects none of them, and a case scripts no output for one.
  ownTools?: readonly string[];
  // The tool_use blocks the loop answers itself rather than through execute (a task call: src/modes/task/): the
  // scripted execute waits for none of them, and refuses a call of one.
  own?: (block: Json) => boolean;
  // A tool_use may have no output in the case: a call the contract never makes (the script refuses it if made).
  outputsOptional?: boolean;
  // A turn served while calls of an earlier one still wait is a loop's inside that call's (a child's): its calls
  // come first.
  nested?: boolean;
  // Reads a case beyond what the loop mode checks (a key of the mode's own a case must carry): the loop mode's
  // parseLoopCase with these options when absent.
  parse?: (text: string) => LoopCase;
};

// Whether a tool_use block is one the loop answers itself (a mode's own tools by name, or its own test of a block).
export function ownBlock(options: LoopOptions): (block: Json) => boolean {
  const named = options.ownTools ?? [];
  return (block) => named.includes(String(block.name)) || (options.own?.(block) ?? false);
}
