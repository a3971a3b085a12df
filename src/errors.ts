// The harness's own misuse (unknown stage, bad case file, missing course directory): a stable code for
// programs, a message that says what is wrong and how to fix it for people. The CLI turns it into exit 2.
export type HarnessErrorCode =
  | 'UNKNOWN_STAGE'
  | 'BAD_CASE'
  | 'NO_COURSE_DIR'
  | 'NO_PROGRAM'
  | 'BAD_FLAG'
  | 'NO_CASES'
  | 'BAD_SNAPSHOT'
  | 'NO_INSTALL_SPEC'
  | 'FILES_EXIST'
  | 'CANNOT_WRITE'
  | 'NO_RECORD'
  | 'NO_SANDBOX'
  | 'NO_REFERENCE'
  | 'SUBMISSION_TOO_LARGE'
  | 'NO_CATALOGUE'
  | 'BAD_CLASS_DATA';

export class HarnessError extends Error {
  override readonly name = 'HarnessError';
  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
  }
}
