/** A request as the transcript shows it: secrets masked. */
export interface TranscriptRequest {
  /** HTTP method. */
  readonly method: string;
  /** Path from the server's root, with the query. */
  readonly url: string;
  /** Request headers, masked. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, masked. */
  readonly body?: string;
}

/** A response as the transcript shows it: secrets masked. */
export interface TranscriptResponse {
  /** HTTP status. */
  readonly status: number;
  /** Response headers, masked. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, masked. */
  readonly body: string;
}

/** One request and its response. */
export interface ExchangeEntry {
  /** Tells entries apart. */
  readonly type: 'exchange';
  /** What the simulator was doing. */
  readonly step: 'initialize' | 'call' | 'cleanup' | 'discover' | 'request';
  /** Why this exchange happened, when it is not the caller's own request (a re-initialize, a retry). */
  readonly note?: string;
  /** The request, masked. */
  readonly request: TranscriptRequest;
  /** The response, masked. */
  readonly response: TranscriptResponse;
  /** How long the exchange took by the simulator's clock. */
  readonly durationMs: number;
  /** Contract violations found in the response; empty when it keeps the contract. */
  readonly problems: readonly string[];
}

/** A wait the connector asked for with a rate-limit 403. */
export interface WaitEntry {
  /** Tells entries apart. */
  readonly type: 'wait';
  /** How long the simulator waited. */
  readonly waitMs: number;
}

/** One line of the simulator's record of a run. */
export type TranscriptEntry = ExchangeEntry | WaitEntry;

const MAX_BODY = 400;

function shortBody(body: string): string {
  const flat = body.replace(/\s+/g, ' ');
  return flat.length > MAX_BODY ? `${flat.slice(0, MAX_BODY)}…` : flat;
}

/**
 * Formats a transcript entry as readable lines, the way the CLI prints them.
 *
 * @param entry - an entry of {@link PlatformSimulator.transcript}
 * @returns lines without trailing newlines
 * @example
 * ```ts
 * for (const entry of platform.transcript) console.log(formatTranscriptEntry(entry).join('\n'));
 * ```
 */
export function formatTranscriptEntry(entry: TranscriptEntry): string[] {
  if (entry.type === 'wait') return [`… rate limited: waiting ${entry.waitMs} ms as asked`];
  const { request, response } = entry;
  const lines: string[] = [];
  if (entry.note !== undefined) lines.push(`… ${entry.note}`);
  lines.push(`→ ${request.method} ${request.url}`);
  if (request.body !== undefined && request.body !== '') lines.push(`  ${shortBody(request.body)}`);
  lines.push(`← ${response.status} in ${Math.round(entry.durationMs)} ms`);
  if (response.body !== '') lines.push(`  ${shortBody(response.body)}`);
  for (const problem of entry.problems) lines.push(`  ✗ contract: ${problem}`);
  return lines;
}
