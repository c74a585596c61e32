import type { HandlerOptions, ParameterEntry, PlatformOperationName } from '@connector-sdk/core';
import type { Clock } from '../simulator/clock.js';
import type { TranscriptEntry } from '../simulator/transcript.js';
import { SessionMasker } from '../simulator/session-masker.js';
import type { Cassette, CassetteOptions } from '../cassette/start-cassette.js';
import { capturingLogger } from './capturing-logger.js';
import type { RoundTripOptions } from './round-trips/round-trip-options.js';
import { ConformanceCassette } from './conformance-cassette.js';
import { ConformanceFailure } from './conformance-failure.js';
import { declaredOperations, type DeclaredOperations } from './declared-operations.js';
import { watchEndSystemCalls, type EndSystemCall } from './end-system-calls.js';
import {
  PlatformSimulator,
  type CallRequest,
  type ConfigInput,
  type PlatformSimulatorOptions,
  type SimulatorResponse,
} from '../simulator/platform-simulator.js';
import {
  createTransport,
  type ConnectorTarget,
  type Transport,
  type WireRequest,
  type WireResponse,
} from '../simulator/transport.js';

/** What the conformance kit needs to know about a connector. */
export interface ConformanceOptions {
  /** The connector under test: a connector (served in-process), a core handler, or a running one's URL. */
  readonly target: ConnectorTarget;
  /** A configuration initialize accepts; its end system must be reachable. */
  readonly config: ConfigInput;
  /** A configuration the connector must reject with 400 (such as a malformed URL). */
  readonly invalidConfig?: ConfigInput;
  /** A configuration whose credentials the end system refuses; initialize must answer 401. */
  readonly wrongCredentials?: ConfigInput;
  /** A later operation that succeeds with a valid session. */
  readonly operation?: CallRequest & {
    /** The status it answers. @default any 2xx */
    readonly expectStatus?: number;
  };
  /**
   * Makes the end system stop accepting a session, for the check that an expired session answers 401 and works
   * again after the platform initializes again: revoke its token, log it out, or wait out its lifetime. It gets
   * the session's entries as initialize answered them (secrets in the clear: it runs in your test).
   */
  readonly expireSession?: (session: readonly ParameterEntry[]) => void | Promise<void>;
  /** What comes before the version segment. @default '/sdk/api' */
  readonly prefix?: string;
  /**
   * Handler options when the target is a connector (the kit adds its own logger beside yours, and checks
   * answers against the shapes operations declare unless `validateAnswers: false` is given).
   */
  readonly handlerOptions?: HandlerOptions;
  /** The header a rate-limit 403 announces its wait in. @default 'Retry-After' */
  readonly retryAfterHeader?: string;
  /** The unit of that header. @default 'seconds' */
  readonly retryAfterUnit?: 'seconds' | 'milliseconds';
  /**
   * The clock the kit waits out a rate limit with. With one, a check whose call answers a 403 that announces a
   * wait waits it out on this clock and sends the call again (three times at most), as the platform does:
   * give the manual clock your fake end system counts its rate limit on, and waiting takes no time. Without
   * one, a check never sleeps: it fails at once on such a 403.
   */
  readonly clock?: Clock;
  /**
   * The connector's log lines so far, for the secret check when the target is a URL or a handler (for a
   * connector target the kit captures them itself).
   */
  readonly logLines?: () => readonly string[];
  /**
   * Record the end system's answers to a cassette, or replay them from it offline (see `startCassette`): the
   * file, or its options. Each check has its own section, named by the check's id, so `describeConformance`,
   * `runConformance` and the CLI's `conformance --replay <file>` read the same file. Replays unless
   * `CONNECTOR_SDK_RECORD` (or `mode`) says to record. A cassette started already may be given too.
   *
   * @default none: the end system is called
   * @example
   * ```ts
   * cassette: new URL('./cassettes/conformance.json', import.meta.url),
   * ```
   */
  readonly cassette?: CassetteOptions | string | URL | Cassette;
  /**
   * Called with each entry of every simulated platform's transcript, as the checks make them (secrets masked):
   * to compare two connectors for the same end system call for call, or to keep the run's exchanges.
   *
   * @example
   * ```ts
   * const entries: TranscriptEntry[] = [];
   * await runConformance({ target, config, onTranscriptEntry: (entry) => entries.push(entry) });
   * ```
   */
  readonly onTranscriptEntry?: (entry: TranscriptEntry) => void;
  /** What the platform checks need to know: where to read, and which platform operations a URL serves. */
  readonly platform?: {
    /**
     * The project the platform checks read entities and history in.
     * @default the first project the connector lists
     */
    readonly projectId?: string;
    /**
     * The entity type the platform checks read entities and history of.
     * @default the first entity type the connector lists in the project
     */
    readonly entityTypeId?: string;
    /**
     * An entity the read checks read (its record and comments), such as one the expiry check must see refused.
     * @default the entity of the first revision of the entity type's history
     */
    readonly entityId?: string;
    /**
     * Lets the round-trip checks write to the end system, in the project and entity type the platform checks
     * read: they create an entity with `create` (unless `entityId` names one), attach a file to it and read it
     * back byte for byte, change it with `update` and look for the change in its history under the integration
     * user's name, then delete the attachment and the entity they made. Use a test project.
     *
     * @default none: the round-trip checks are skipped, and say why
     * @example
     * ```ts
     * platform: { projectId: 'SANDBOX', roundTrip: { create: { subject: 'conformance' }, update: { subject: 'changed' } } }
     * ```
     */
    readonly roundTrip?: RoundTripOptions;
    /**
     * The platform operations the connector serves, by catalog name (`PLATFORM_OPERATIONS` of
     * `@connector-sdk/core`), for a target the kit cannot read them from: a URL or a handler. With the list,
     * the platform checks run as they do for a connector the kit serves; without it, they are skipped and
     * say so. For a connector target the kit reads them from the connector, and a list given too must agree
     * with it (options shared with a run over HTTP then cannot drift from the connector). An unknown name
     * is an error before any check runs.
     *
     * @default none: for a URL or a handler, the platform checks are skipped
     * @example
     * ```ts
     * platform: { operations: ['connectorMetadata', 'serverInfo', 'projects', 'entityHistory'] }
     * ```
     */
    readonly operations?: readonly PlatformOperationName[];
    /**
     * Where the connector serves listed operations that it moved off the catalog's path (the builder's
     * `path` option): name → path after the versioned base, with the catalog path's parameters.
     *
     * @default each at the catalog's path
     * @example
     * ```ts
     * paths: { entityHistory: '/entities/:entityTypeId/revisions' }
     * ```
     */
    readonly paths?: Readonly<Partial<Record<PlatformOperationName, string>>>;
  };
}

/** A response as the run recorded it, unmasked, for the secret check. */
export interface RecordedExchange {
  readonly request: WireRequest;
  readonly response: WireResponse;
  /** The end-system calls the connector made meanwhile, as far as this process sees them. */
  readonly endSystemCalls: readonly EndSystemCall[];
  /** The lines the kit captured meanwhile from a connector it serves (none for other targets). */
  readonly logLines: readonly string[];
}

/** The values of the entries marked sensitive in an initialize answer. @internal */
export function sensitiveEntries(text: string): string[] {
  try {
    const entries = JSON.parse(text) as unknown;
    return Array.isArray(entries)
      ? entries.flatMap((entry: { value?: unknown; sensitive?: unknown }) =>
          entry?.sensitive === true && typeof entry.value === 'string' ? [entry.value] : [],
        )
      : [];
  } catch {
    return [];
  }
}

function isConnectorTarget(
  target: ConnectorTarget,
): target is Extract<ConnectorTarget, { compiled: unknown }> {
  return typeof target === 'object' && !(target instanceof URL) && 'compiled' in target;
}

/**
 * One conformance run: the options, a transport that records every exchange, the captured log lines, and
 * simulators that share them.
 *
 * @internal
 */
export class ConformanceRun {
  readonly options: ConformanceOptions;
  readonly exchanges: RecordedExchange[] = [];
  readonly #logLines: string[] = [];
  readonly #transport: Transport;

  readonly #masker = new SessionMasker();
  /** The run's cassette, when it records or replays the end system. */
  readonly cassette: ConformanceCassette | undefined;
  /** The platform operations the target serves; `undefined` when the kit cannot know them. */
  readonly platformOperations: DeclaredOperations | undefined;

  /** @throws TypeError when `platform.operations` names an unknown operation or disagrees with the connector */
  constructor(options: ConformanceOptions) {
    this.options = options;
    this.cassette =
      options.cassette === undefined ? undefined : new ConformanceCassette(options.cassette);
    this.platformOperations = declaredOperations(
      isConnectorTarget(options.target) ? options.target : undefined,
      options.platform,
    );
    this.#transport = this.transportFor(options.handlerOptions ?? {});
    for (const config of [options.config, options.invalidConfig, options.wrongCredentials])
      if (config !== undefined) this.#masker.learn(this.simulator(config).config);
  }

  /**
   * Fails unless the response has one of the expected statuses, saying what the connector answered (masked)
   * and what to fix.
   *
   * @param response - what the connector answered
   * @param expected - acceptable statuses (`'2xx'` for any success)
   * @param told - the request, in words (`what`), and what the author should change (`fix`)
   */
  expectStatus(
    response: SimulatorResponse,
    expected: readonly number[] | '2xx',
    told: { readonly what: string; readonly fix: string },
  ): void {
    const { what, fix } = told;
    const ok =
      expected === '2xx'
        ? response.status >= 200 && response.status < 300
        : expected.includes(response.status);
    if (ok) return;
    const message = (response.body as { errors?: { message?: unknown } } | undefined)?.errors
      ?.message;
    const got = `${response.status}${response.code === undefined ? '' : ` ${response.code}`}${
      typeof message === 'string' ? ` ("${this.#masker.text(message).slice(0, 200)}")` : ''
    }`;
    const want = expected === '2xx' ? 'a 2xx' : expected.join(' or ');
    throw new ConformanceFailure(`${what} answered ${got}; expected ${want}. ${fix}`);
  }

  /** Whether the kit serves the connector itself (so it can pick handler options). */
  get servesConnector(): boolean {
    return isConnectorTarget(this.options.target);
  }

  /** Every log line so far: captured by the kit, or given by the author. */
  logLines(): readonly string[] {
    return [...this.#logLines, ...(this.options.logLines?.() ?? [])];
  }

  /** A recording transport to the target, served with these handler options if it is a connector. */
  transportFor(handlerOptions: HandlerOptions): Transport {
    const options = this.servesConnector
      ? { ...handlerOptions, logger: capturingLogger(this.#logLines, handlerOptions.logger) }
      : handlerOptions;
    const inner = createTransport(this.options.target, { handlerOptions: options });
    const { target } = this.options;
    const ownOrigin =
      typeof target === 'string' || target instanceof URL ? new URL(target).origin : undefined;
    return async (request) => {
      const watch = watchEndSystemCalls(ownOrigin);
      const from = this.#logLines.length;
      const response = await inner(request).finally(watch.stop);
      if (this.cassette && request.path.includes('/initialize/') && response.status === 200)
        await this.cassette.learn(sensitiveEntries(response.text));
      this.exchanges.push({
        request,
        response,
        endSystemCalls: watch.calls,
        logLines: this.#logLines.slice(from),
      });
      return response;
    };
  }

  /**
   * Now, in epoch ms, on the run's clock: the test's own when it gives one, else the wall clock (not
   * `systemClock`, whose `now()` counts from the process's start: a "since" written from it is in 1970).
   */
  now(): number {
    return this.options.clock?.now() ?? Date.now();
  }

  /** A fresh simulated platform (its own sync session) on this run's recording transport. */
  simulator(
    config: ConfigInput = this.options.config,
    overrides: Partial<PlatformSimulatorOptions> = {},
    transport: Transport = this.#transport,
  ): PlatformSimulator {
    const { prefix, retryAfterHeader, retryAfterUnit, clock, onTranscriptEntry } = this.options;
    return new PlatformSimulator(transport, {
      target: this.options.target,
      config,
      ...(onTranscriptEntry === undefined ? {} : { onEntry: onTranscriptEntry }),
      ...(prefix === undefined ? {} : { prefix }),
      ...(retryAfterHeader === undefined ? {} : { retryAfterHeader }),
      ...(retryAfterUnit === undefined ? {} : { retryAfterUnit }),
      // Without a clock of the test's own, a check never sleeps: a rate-limit 403 is answered at once, so a
      // check fails fast, not by timeout.
      ...(clock === undefined ? { maxWaits: 0 } : { clock }),
      ...overrides,
    });
  }
}
