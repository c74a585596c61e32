/** Where the CLI writes. */
export interface CliIo {
  /** Writes one line of normal output. */
  readonly out: (line: string) => void;
  /** Writes one line of error output. */
  readonly err: (line: string) => void;
}
