import { ConnectorError } from '../errors/connector-error.js';
import { checkBodyTimeout, type BodyBudget } from './body-limits.js';

/**
 * The bytes a body may hold from the budget beyond what has arrived: Node reads a connection 64 KiB at a time,
 * so the next read of a body always fits in what it holds. A body holds what has arrived plus at most this
 * (never more than its declared length), so a declared length alone holds little (ARCHITECTURE.md, D26).
 *
 * @internal shared by the bindings
 */
export const READ_AHEAD = 64 * 1024;

/**
 * The length a body declared (`Content-Length`, already a number), `Infinity` when it declared none (chunked)
 * or none that counts.
 *
 * @internal shared by the bindings
 */
export function declaredLength(declared: number): number {
  return Number.isFinite(declared) && declared > 0 ? declared : Infinity;
}

/**
 * What a body holds from the budget before a byte of it has come: a read ahead, never more than its length.
 *
 * @internal shared by the bindings
 */
export function firstHold(length: number): number {
  return Math.min(length, READ_AHEAD);
}

/**
 * A body being read, as a {@link BodyWatch} sees it; each binding's reader implements it over its own stream.
 *
 * @internal shared by the bindings
 */
export interface WatchedBody {
  /** Whose body it is, for a binding that chooses which bodies may make room (node: the request). */
  readonly owner?: unknown;
  /** When the body was asked for, on `performance.now()`'s clock; set by the watch. */
  since: number;
  /** When its last bytes arrived, on the same clock; read only once some have. */
  lastBytesAt: number;
  /** The body's bytes arrived so far. */
  received: number;
  /** The declared length, `Infinity` when unknown (chunked). */
  readonly length: number;
  /** The bytes held from the budget: those arrived and a read ahead. */
  reserved: number;
  /** The watch's list, newest first; the watch's own. */
  previous: WatchedBody | undefined;
  next: WatchedBody | undefined;
  /** Whether the client went away; asked on every sweep. */
  gone(): boolean;
  /**
   * Ends the read: with its text (`undefined`), or with `error`. Must take the body out of the watch and give
   * its bytes back to the budget.
   */
  finish(error: Error | undefined): void;
}

const cutOff = () => new ConnectorError('BAD_REQUEST', 'The request body was cut off');

/**
 * The bodies of one handler still arriving, watched by a single timer instead of a timer and `error` and
 * `aborted` listeners per body (those cost about 2 µs of an initialize's 70, measured side by side in one
 * process). Every `periodMs` the timer answers 408 to the bodies asked for at least the timeout ago, and to those
 * that sent no byte within `firstBytesMs`, and 400 to those whose client went away; it runs only while some body
 * is arriving. A body is refused between `timeoutMs` and `timeoutMs` + `periodMs` after it was asked for, and a
 * body cut off is noticed within `periodMs` (at most a second).
 *
 * When the budget cannot give a body what it needs, the watch refuses (408) a body that is holding budget
 * without sending: the oldest that has sent nothing, else the one that has sent nothing for longest, at least
 * `firstBytesMs`. Only when no body is stalled is the one asking refused (503).
 *
 * Shared by the node binding (`IncomingMessage` bodies) and the WHATWG readers (`Request` bodies).
 *
 * @internal shared by the bindings
 */
export class BodyWatch {
  /** Time between two sweeps, in milliseconds: a quarter of the first-bytes timeout, at most a second. */
  readonly periodMs: number;
  readonly #timeoutMs: number;
  readonly #firstBytesMs: number;
  #timer: ReturnType<typeof setInterval> | undefined;
  /** The bodies arriving, newest first (a list, so that a finished body leaves it without a search). */
  #first: WatchedBody | undefined;

  /**
   * @param timeoutMs - longest time a whole body may take to arrive, in milliseconds; `Infinity` for none
   * @param firstBytesMs - longest time a body may take to send its first bytes, and longest a body holding
   *   budget may pause before another body that needs the budget takes it; the whole timeout by default
   */
  constructor(timeoutMs: number, firstBytesMs = timeoutMs) {
    this.#timeoutMs = checkBodyTimeout(timeoutMs);
    if (!(firstBytesMs >= 1)) throw new TypeError('bodyFirstBytesTimeoutMs must be at least 1');
    this.#firstBytesMs = Math.min(timeoutMs, firstBytesMs);
    this.periodMs = Math.min(1000, Math.ceil(this.#firstBytesMs / 4));
  }

  /**
   * Longest time a body may take to send its first bytes once its head has come, in milliseconds: the bodies
   * this watch counts, and a streamed upload's first chunk.
   */
  get firstBytesMs(): number {
    return this.#firstBytesMs;
  }

  /**
   * Takes `bytes` from `budget` for a body, refusing stalled bodies to make room when they do not fit.
   * Returns `false` when they still do not fit.
   */
  take(budget: BodyBudget, bytes: number, asking?: WatchedBody): boolean {
    while (!budget.take(bytes)) {
      const stalled = this.#stalled(asking);
      if (stalled === undefined) return false;
      stalled.finish(
        new ConnectorError(
          'REQUEST_TIMEOUT',
          'The request body stopped arriving while other requests needed the connector',
        ),
      );
    }
    return true;
  }

  /**
   * Refuses (408) one body whose request holds a place that a newcomer needs, when no place is left for it:
   * among the bodies asked for at least `graceMs` ago (and that `eligible` accepts), the oldest that has sent
   * nothing, else the one paused longest, if for at least `firstBytesMs`, else the oldest still arriving. A body
   * that trickles holds its place as long as one that sends nothing; at the connection cap `serve()` closes the
   * connections without a whole request first for the same reason. A body whose client went away is finished
   * on the way (its connection gave its place back when it closed) and makes no room. Returns whether one was
   * refused; its request gives its place back once that answer is written.
   */
  refuseForPlace(graceMs: number, eligible?: (owner: unknown) => boolean): boolean {
    const now = performance.now();
    let silent: WatchedBody | undefined;
    let paused: WatchedBody | undefined;
    let oldest: WatchedBody | undefined;
    for (let read = this.#first; read;) {
      // Taken first: finishing a body takes it out of the list.
      const next: WatchedBody | undefined = read.next;
      if (read.gone()) read.finish(cutOff());
      else if (now - read.since >= graceMs && (eligible === undefined || eligible(read.owner))) {
        // The list is newest first: the last one seen of each kind is the oldest.
        if (read.received === 0) silent = read;
        else if (paused === undefined || read.lastBytesAt <= paused.lastBytesAt) paused = read;
        oldest = read;
      }
      read = next;
    }
    const victim =
      silent ??
      (paused !== undefined && now - paused.lastBytesAt >= this.#firstBytesMs ? paused : oldest);
    if (victim === undefined) return false;
    victim.finish(
      new ConnectorError(
        'REQUEST_TIMEOUT',
        'The request body had not all come while other requests needed the connector',
      ),
    );
    return true;
  }

  /**
   * Makes what `read` holds from `budget` cover what has arrived of it and a read ahead of what is still to
   * come (never past its length), once its `received` counts a chunk just come. Returns `false` when the budget
   * cannot give that even after refusing stalled bodies: the body is then to be refused (503).
   */
  hold(read: WatchedBody, budget: BodyBudget | undefined): boolean {
    const size = read.received;
    const wanted = Math.min(size + READ_AHEAD, Math.max(read.length, size));
    if (wanted <= read.reserved) return true;
    if (budget && !this.take(budget, wanted - read.reserved, read)) return false;
    read.reserved = wanted;
    return true;
  }

  /**
   * The body to refuse for room: the oldest that has sent nothing since it was asked for (the list is newest
   * first), else the one whose last bytes are oldest, if at least `firstBytesMs` old.
   */
  #stalled(asking: WatchedBody | undefined): WatchedBody | undefined {
    let silent: WatchedBody | undefined;
    let paused: WatchedBody | undefined;
    for (let read = this.#first; read; read = read.next) {
      if (read === asking || read.reserved === 0) continue;
      if (read.received === 0) silent = read;
      else if (paused === undefined || read.lastBytesAt <= paused.lastBytesAt) paused = read;
    }
    if (silent) return silent;
    return paused && performance.now() - paused.lastBytesAt >= this.#firstBytesMs
      ? paused
      : undefined;
  }

  /** The number of bodies arriving; for tests. */
  get size(): number {
    let count = 0;
    for (let read = this.#first; read; read = read.next) count++;
    return count;
  }

  /** Whether the timer runs; for tests. */
  get sweeping(): boolean {
    return this.#timer !== undefined;
  }

  /** Watches a body from now. */
  add(read: WatchedBody): void {
    read.since = performance.now();
    read.next = this.#first;
    if (this.#first) this.#first.previous = read;
    this.#first = read;
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.periodMs);
      this.#timer.unref?.();
    }
  }

  /** Stops watching a body that ended, one way or another. */
  remove(read: WatchedBody): void {
    if (read.previous) read.previous.next = read.next;
    else if (this.#first === read) this.#first = read.next;
    if (read.next) read.next.previous = read.previous;
    read.previous = read.next = undefined;
  }

  #sweep(): void {
    let read = this.#first;
    if (read === undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      return;
    }
    // A monotonic clock, read once: a body is never refused before its whole timeout has passed.
    const now = performance.now();
    while (read) {
      // Taken first: finishing a body takes it out of the list.
      const next: WatchedBody | undefined = read.next;
      if (read.gone()) read.finish(cutOff());
      else if (read.received === 0 && now - read.since >= this.#firstBytesMs)
        read.finish(
          new ConnectorError(
            'REQUEST_TIMEOUT',
            `The request body did not begin within ${this.#firstBytesMs} ms`,
          ),
        );
      else if (now - read.since >= this.#timeoutMs)
        read.finish(
          new ConnectorError(
            'REQUEST_TIMEOUT',
            `The request body did not arrive within ${this.#timeoutMs} ms`,
          ),
        );
      read = next;
    }
  }
}
