/** A problem the user must fix in how they called the CLI (exit status 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
