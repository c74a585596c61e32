import { randomUUID } from 'node:crypto';
import type { ParameterEntry } from '@connector-sdk/core';
import type { EndSystemAttempt } from '@connector-sdk/core/http';
import { CassetteRecorder, readRequest } from '../../cassette/record/cassette-recorder.js';
import { SecretSet } from '../../secrets/secret-forms.js';
import { consoleCalls } from './console-calls.js';
import {
  createPlatformSimulator,
  type PlatformSimulator,
} from '../../simulator/platform-simulator.js';
import type { SimulatorResponse } from '../../simulator/simulator-types.js';
import type { TranscriptEntry } from '../../simulator/transcript.js';
import { SAVED_SECTION, type SavedStep } from './saved-test.js';
import type { EndSystemCall } from './end-system-log.js';
import { callRequestOf, type ConsoleEntry, type FaultStep, type ScenarioStep } from './scenario.js';

// The platform as the console plays it: one simulated platform at a time, driven over HTTP against the dev
// server's connector, so that its calls take the path the real platform's take. Each exchange of its transcript
// (masked by the simulator) is shown with the end-system calls made under it, read from the SDK's diagnostics
// channel; the end system's answers to the console's calls are recorded (through the end-system tap, to be
// scrubbed only when saved) for the cassette a save writes; the faults the console injects answer in the end
// system's place. Actions run one at a time, in order.

/** A fault the console makes the end system answer the next platform call with. */
export type InjectedFault = FaultStep['kind'];

/** What the console's page receives, numbered so it can ask for what it has not seen. */
export type ConsoleEvent = { readonly seq: number } & (
  | { readonly type: 'entry'; readonly entry: ConsoleEntry }
  | { readonly type: 'end-system'; readonly call: EndSystemCall }
  | { readonly type: 'notice'; readonly level: 'info' | 'error'; readonly text: string }
  | { readonly type: 'reload'; readonly generation: number; readonly files: readonly string[] }
);

/** A configuration as the console's form sends it: text values, with which are sensitive. */
export type ConsoleConfig = readonly ParameterEntry[];

const MAX_EVENTS = 2_000;

/** @internal */
export class ConsoleSession {
  readonly #connectorUrl: () => string;
  readonly #expireSession:
    ((session: readonly ParameterEntry[]) => void | Promise<void>) | undefined;
  #events: ConsoleEvent[] = [];
  #seq = 0;
  #waiters = new Set<() => void>();
  #queue: Promise<unknown> = Promise.resolve();
  #platform: PlatformSimulator | undefined;
  #config: ConsoleConfig | undefined;
  #steps: ScenarioStep[] = [];
  #saved: SavedStep[] = [];
  #entries: ConsoleEntry[] = [];
  #underway: EndSystemCall[] | undefined;
  #fault: InjectedFault | undefined;
  #recorder = new CassetteRecorder();
  #sdkSessionId = `sdk-session-${randomUUID()}`;
  #faultAttempt = 0;
  /** The dev server's own secrets, masked from the start (before any initialize taught the simulator). */
  readonly #secrets = new SecretSet();
  /** The system id of the console's platform, which tells its calls from anyone else's. */
  readonly systemId = `dev-console-${randomUUID().slice(0, 8)}`;

  constructor(options: {
    /** Where the dev server serves the connector, known once it listens. */
    readonly connectorUrl: () => string;
    readonly expireSession?:
      ((session: readonly ParameterEntry[]) => void | Promise<void>) | undefined;
    /** Values to mask from the start: the dev server's sensitive configuration. */
    readonly secrets?: readonly string[];
  }) {
    for (const secret of options.secrets ?? []) this.#secrets.add(secret);
    this.#connectorUrl = options.connectorUrl;
    this.#expireSession = options.expireSession;
  }

  /** The steps with their answers, for a saved test. */
  get saved(): readonly SavedStep[] {
    return this.#saved;
  }

  /** Masks every secret the simulated platform knows in a text. */
  mask(text: string): string {
    return this.#secrets.mask(this.#platform?.mask(text) ?? text);
  }

  /** The configuration of the last initialize. */
  get config(): ConsoleConfig | undefined {
    return this.#config;
  }

  /** The recording of the scenario's end-system calls. */
  get recorder(): CassetteRecorder {
    return this.#recorder;
  }

  /** Events after `seq`, waiting up to `waitMs` for one when there is none yet. */
  async eventsAfter(seq: number, waitMs: number): Promise<ConsoleEvent[]> {
    const ready = () => this.#events.filter((event) => event.seq > seq);
    if (ready().length > 0 || waitMs <= 0) return ready();
    await new Promise<void>((resolve) => {
      const waiters = this.#waiters;
      const timer = setTimeout(done, waitMs);
      function done() {
        clearTimeout(timer);
        waiters.delete(done);
        resolve();
      }
      waiters.add(done);
    });
    return ready();
  }

  /** Tells the page something. */
  notice(level: 'info' | 'error', text: string): void {
    this.#publish({ type: 'notice', level, text });
  }

  /** Tells the page the connector was loaded again (its forms may have changed). */
  reloaded(generation: number, files: readonly string[]): void {
    this.#publish({ type: 'reload', generation, files });
  }

  /** An end-system call the SDK published: shown under the console's call it was made in, else on its own. */
  sawEndSystemCall(call: EndSystemCall, inConsoleCall: boolean): void {
    if (inConsoleCall && this.#underway !== undefined) this.#underway.push(call);
    else this.#publish({ type: 'end-system', call });
  }

  /**
   * Initializes with a configuration: a new simulated platform, a new scenario, a new recording.
   *
   * @returns the entries of the initialize
   */
  initialize(config: ConsoleConfig): Promise<readonly ConsoleEntry[]> {
    return this.#serial(async () => {
      this.#config = config;
      // A new sync session; a rerun keeps this one, so its transcript differs only where the connector does.
      this.#sdkSessionId = `sdk-session-${randomUUID()}`;
      this.#begin();
      return this.#run({ kind: 'initialize' });
    });
  }

  /** Runs a later call or a cleanup in the current session. */
  step(step: ScenarioStep): Promise<readonly ConsoleEntry[]> {
    return this.#serial(() => this.#run(step));
  }

  /** Runs the last later call again. */
  replayLast(): Promise<readonly ConsoleEntry[]> {
    const last = this.#steps.findLast((step) => step.kind === 'call');
    if (last === undefined) return Promise.reject(new TypeError('No later call to replay yet'));
    return this.step(last);
  }

  /**
   * Runs the whole scenario again from initialize (after a reload), as a new session.
   *
   * @returns the entries before and after, to compare; `undefined` when there was no scenario
   */
  rerun(): Promise<
    { before: readonly ConsoleEntry[]; after: readonly ConsoleEntry[] } | undefined
  > {
    return this.#serial(async () => {
      if (this.#config === undefined || this.#steps.length === 0) return undefined;
      const before = this.#entries;
      const steps = this.#steps;
      this.#begin();
      for (const step of steps) await this.#run(step);
      return { before, after: this.#entries };
    });
  }

  /**
   * Expires the session as the end system would: through the dev server's `expireSession` when given, else by
   * answering the next platform call's end-system calls with a 401.
   */
  expire(): Promise<readonly ConsoleEntry[]> {
    return this.step({ kind: 'expire' });
  }

  /** Answers the next platform call's end-system calls with a 429 that asks for a 1 s wait. */
  rateLimit(): Promise<readonly ConsoleEntry[]> {
    return this.step({ kind: 'rate-limit' });
  }

  /** A fault step: set for the next call, a step of the scenario so that a rerun sets it again. */
  async #setFault(step: FaultStep): Promise<readonly ConsoleEntry[]> {
    const session = this.#platform?.session;
    if (session === undefined) throw new TypeError('Initialize first: there is no session yet');
    if (step.kind === 'expire' && this.#expireSession !== undefined) {
      await this.#expireSession(session);
      this.notice('info', 'The end system ended the session: the next call will see it');
    } else if (step.kind === 'expire') {
      this.#fault = 'expire';
      this.notice('info', "The end system will answer the next call's requests with 401");
    } else {
      this.#fault = 'rate-limit';
      this.notice(
        'info',
        "The end system will answer the next call's requests with 429 (Retry-After: 1)",
      );
    }
    this.#steps.push(step);
    return [];
  }

  /**
   * The end-system tap: records what the console's calls send and receive, and answers a fault in the end
   * system's place.
   */
  async tap(attempt: EndSystemAttempt): Promise<Response> {
    if (this.#underway === undefined || consoleCalls.getStore() !== true) return attempt.send();
    const recorder = this.#recorder;
    recorder.secrets(() => attempt.secrets.values());
    const request = readRequest(attempt.request.clone());
    const fault = this.#fault;
    const response = fault === undefined ? await attempt.send() : faultAnswer(fault);
    if (fault !== undefined) {
      const masked = new SecretSet();
      for (const secret of attempt.secrets.values()) masked.add(secret);
      const url = new URL(attempt.request.url);
      this.#underway.push({
        method: attempt.request.method,
        url: masked.mask(`${url.origin}${url.pathname}`),
        status: response.status,
        attempt: this.#faultAttempt++,
        ms: 0,
      });
    }
    recorder.record(request, response.clone());
    return response;
  }

  #begin(): void {
    const config = this.#config ?? [];
    // A fault set for the last scenario's next call is not this one's.
    this.#fault = undefined;
    this.#steps = [];
    this.#saved = [];
    this.#entries = [];
    this.#recorder = new CassetteRecorder();
    this.#recorder.section(SAVED_SECTION);
    const secrets = config.filter((entry) => entry.sensitive).map((entry) => entry.value);
    this.#recorder.secrets(() => secrets);
    this.#platform = createPlatformSimulator({
      target: this.#connectorUrl(),
      config,
      sdkSessionId: this.#sdkSessionId,
      systemId: this.systemId,
      onEntry: (entry) => this.#entry(entry),
    });
  }

  async #run(step: ScenarioStep): Promise<readonly ConsoleEntry[]> {
    if (step.kind === 'expire' || step.kind === 'rate-limit') return this.#setFault(step);
    const platform = this.#platform;
    if (platform === undefined) throw new TypeError('Initialize first');
    const from = this.#entries.length;
    let response: SimulatorResponse;
    this.#underway = [];
    try {
      if (step.kind === 'initialize') response = await platform.initialize();
      else if (step.kind === 'cleanup') response = await platform.cleanup();
      else response = await platform.call(callRequestOf(step));
    } finally {
      this.#underway = undefined;
      if (step.kind !== 'initialize') this.#fault = undefined;
    }
    this.#steps.push(step);
    // An answer is kept whole for a saved test only when it holds nothing the simulator would mask.
    const clean = platform.mask(response.text) === response.text && response.body !== undefined;
    this.#saved.push({ step, status: response.status, ...(clean ? { body: response.body } : {}) });
    return this.#entries.slice(from);
  }

  #entry(entry: TranscriptEntry): void {
    const shown: ConsoleEntry =
      entry.type === 'wait' ? entry : { ...entry, endSystem: this.#underway ?? [] };
    if (this.#underway !== undefined) this.#underway = [];
    this.#faultAttempt = 0;
    // A fault answers the first platform exchange only: the platform's retry (after a wait, or with a new
    // session) reaches the end system as it is.
    if (entry.type === 'exchange') this.#fault = undefined;
    this.#entries.push(shown);
    this.#publish({ type: 'entry', entry: shown });
  }

  #publish(event: DistributiveOmit<ConsoleEvent, 'seq'>): void {
    this.#events.push({ ...event, seq: ++this.#seq } as ConsoleEvent);
    if (this.#events.length > MAX_EVENTS) this.#events = this.#events.slice(-MAX_EVENTS / 2);
    const waiters = this.#waiters;
    this.#waiters = new Set();
    for (const wake of waiters) wake();
  }

  #serial<T>(action: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(action, action);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function faultAnswer(fault: InjectedFault): Response {
  return fault === 'expire'
    ? Response.json(
        { error: 'token expired', injectedBy: 'the dev console' },
        { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } },
      )
    : Response.json(
        { error: 'too many requests', injectedBy: 'the dev console' },
        { status: 429, headers: { 'retry-after': '1' } },
      );
}
