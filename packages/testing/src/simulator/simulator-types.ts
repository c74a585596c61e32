import type { HandlerOptions, ParameterEntry } from '@connector-sdk/core';
import type { Clock } from './clock.js';
import type { TranscriptEntry } from './transcript.js';
import type { ConnectorTarget } from './transport.js';

/**
 * The configuration a user entered for the end system: the contract's entries as they are, or a record of
 * values (plain strings are not sensitive; write `{ value, sensitive: true }` for those that are).
 */
export type ConfigInput =
  | readonly ParameterEntry[]
  | Readonly<Record<string, string | { readonly value: string; readonly sensitive: boolean }>>;

/** Options of {@link createPlatformSimulator}. */
export interface PlatformSimulatorOptions {
  /** The connector under test: a base URL, a core handler or a connector. */
  readonly target: ConnectorTarget;
  /** The configuration initialize sends. */
  readonly config: ConfigInput;
  /** The configured end system's id. @default 'system-1' */
  readonly systemId?: string;
  /** The sync session's id. @default a fresh `sdk-session-<uuid>` */
  readonly sdkSessionId?: string;
  /** Sends `suppressNotification` `"1"` (true) or `"2"` (false); omitted when not set. */
  readonly suppressNotification?: boolean;
  /** What comes before the version segment. @default '/sdk/api' */
  readonly prefix?: string;
  /** Handler options when the target is a connector. @default `{ validateAnswers: true }` */
  readonly handlerOptions?: HandlerOptions;
  /** The header a rate-limit 403 announces its wait in. @default 'Retry-After' */
  readonly retryAfterHeader?: string;
  /** The unit of that header's value. @default 'seconds' */
  readonly retryAfterUnit?: 'seconds' | 'milliseconds';
  /** Most rate-limit waits for one call before its 403 is returned. @default 3 */
  readonly maxWaits?: number;
  /** Longest single wait the simulator accepts; a longer one is a {@link SimulatorError}. @default 600_000 */
  readonly maxWaitMs?: number;
  /** What time is and how to wait. Use {@link createManualClock} in tests. @default systemClock */
  readonly clock?: Clock;
  /** Most time one HTTP call may take. @default 30_000 */
  readonly requestTimeoutMs?: number;
  /** Called with each transcript entry as it is recorded (the CLI prints progress with it). */
  readonly onEntry?: (entry: TranscriptEntry) => void;
}

/** A later call, relative to the versioned base. */
export interface CallRequest {
  /** HTTP method. @default 'GET' */
  readonly method?: string;
  /** The path after the base, such as `/issues/42`. */
  readonly path: string;
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /**
   * The body: a `FormData` is sent as `multipart/form-data` (an attachment upload); anything else is
   * serialised as JSON.
   */
  readonly body?: unknown;
  /** Extra request headers. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request exactly as given, for probing the contract. */
export interface RawRequest {
  /** HTTP method. */
  readonly method: string;
  /** The path after the base (or from the root, with `fromRoot`). */
  readonly path: string;
  /** Take `path` from the server's root instead of the versioned base. @default false */
  readonly fromRoot?: boolean;
  /** Query parameters. */
  readonly query?: Readonly<Record<string, string>>;
  /** Request headers. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, sent as it is. */
  readonly body?: string;
  /** Send the current session's headers too. @default false */
  readonly withSession?: boolean;
  /** Check a success as an initialize answer. @default 'call' */
  readonly kind?: 'initialize' | 'call';
}

/** A response the simulator received and checked. */
export interface SimulatorResponse {
  /** HTTP status. */
  readonly status: number;
  /** Response headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text. */
  readonly text: string;
  /** The body parsed as JSON; `undefined` when it is not JSON. */
  readonly body: unknown;
  /** The error code of a failed call. */
  readonly code: string | undefined;
}
