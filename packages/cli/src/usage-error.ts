// A problem with the command line itself (exit code 2). Kept apart from exit-codes.ts so that
// modules needing only this class do not load the SDK.
export class UsageError extends Error {
  override name = 'UsageError';
}
