// Stand-ins for the README's quick start, which calls an end system the reader writes: `login` and
// `fetchIssue` are their placeholders.

export interface AcmeConfig {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

export declare function login(config: AcmeConfig): Promise<string>;
export declare function fetchIssue(
  session: Record<string, unknown>,
  id: string,
): Promise<unknown>;
