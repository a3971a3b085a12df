// What a course author's code imports from `theinference/record`: the library API that records an agent written
// in the course as it runs (docs/live-recording.md).
export { recordExecute } from './live/record-execute.ts';
export type { RecordExecuteOptions, RecordExecuteOutcome, RecordingExecute } from './live/record-execute.ts';
