import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Most requests a connection may have parsed and waiting behind the one being answered. Node parses every
 * request of a read (64 KiB: about a thousand small heads) before any is answered; past this many, the rest of
 * the read is not parsed and the connection closes once the answers it is owed are sent (ARCHITECTURE.md, D26).
 */
export const MAX_PIPELINED = 8;
/** Requests of this connection waiting for the answers before theirs. */
const WAITING = Symbol('connector-sdk.pipelined-waiting');
/**
 * Set on a connection that pipelined past {@link MAX_PIPELINED}: nothing more is read or answered on it, and it
 * closes once the answers it is owed are sent. `serve()`'s pool takes such connections first at its cap.
 */
export const CLOSING = Symbol('connector-sdk.closing');

/** What `node:http` keeps on a server socket that this module reads or sets (Node 20 to 24). */
interface ServerSocket extends Socket {
  [WAITING]?: number;
  [CLOSING]?: true;
  /** Node's own flag: reading stopped because answers backed up; `node:http` resumes it once they drain. */
  _paused?: boolean;
  /** Node's HTTP parser of this connection; `onIncoming` is called for each request head it parses. */
  parser?: { onIncoming: (...args: unknown[]) => unknown; resume(): void } | null;
}

const DONE = Promise.resolve();

/** Whether a connection is being closed because it pipelined past the bound. */
export const isClosing = (socket: Socket): boolean => (socket as ServerSocket)[CLOSING] === true;

/**
 * Stops reading a connection that pipelined past the bound, and ends it once the answers it is owed are sent.
 * Node's parser goes on through the rest of the read it is in, making a request for every head in it, and none
 * of that can be stopped from a request listener (`parser.pause()` and `socket.destroy()` take effect only after
 * the read; measured on Node 20 and 24): so the parser's `onIncoming` is replaced by one that returns 2, which
 * tells the parser to stop there as it does before an upgrade. The requests already parsed hold no handler and
 * are dropped with the connection.
 */
function closeWhenOwedAreSent(
  socket: ServerSocket,
  response: ServerResponse,
  lingerMs: number,
): void {
  socket[CLOSING] = true;
  const parser = socket.parser;
  if (!parser) {
    socket.destroy();
    return;
  }
  parser.onIncoming = () => 2;
  // Nothing more is read: Node resumes a paused connection when its answers drain, so resuming is made a no-op.
  socket._paused = true;
  socket.pause();
  socket.resume = function stayPaused(this: Socket) {
    return this;
  };
  // A client that takes none of its answers is cut off after the lingering time.
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // Node hands the connection to this request's response once every answer before it is sent: then end it. The
  // client reads the answers and the end, and is not reset while it may still be reading them. The connection
  // is read again only to learn that the client has closed: its parser stays paused, so what comes is refused
  // unparsed (a client error, upon which the connection is destroyed).
  response.once('socket', () => {
    if (socket.destroyed) return;
    socket.end();
    delete (socket as { resume?: unknown }).resume;
    socket._paused = false;
    socket.resume();
  });
}

/** Reads a connection again once nothing waits on it, as Node does when answers that backed up have drained. */
function resumeReading(socket: ServerSocket): void {
  if (socket[WAITING] || socket[CLOSING] || !socket._paused || socket.destroyed) return;
  // Answers still backed up: Node resumes it once they drain.
  if (socket.writableNeedDrain) return;
  socket._paused = false;
  socket.parser?.resume();
  socket.resume();
}

/**
 * The requests of one handler in progress, and the pipelining rule of each connection (ARCHITECTURE.md, D26): a connection
 * has one request in progress at a time. A request that arrives while an answer is unfinished on its connection
 * (the client pipelined) waits, unhandled, until the answers before it are sent, and the connection is not read
 * further meanwhile; past {@link MAX_PIPELINED} waiting, the connection is not read again and closes once the
 * answers it is owed are sent. Requests in progress over all connections are bounded by `max`: past it a
 * request is answered 503 at once. The last places up to `max` are kept for known callers (a session this
 * handler sealed, an `initializeFrom` network): once only those are left, a stranger gets the 503.
 *
 * A request with nothing before it costs one property read and a counter; only pipelined ones get a listener.
 *
 * @internal
 */
export class Admission {
  #inProgress = 0;
  /** Where a connection keeps how many places of this admission it holds. */
  readonly #held = Symbol('connector-sdk.places-held');
  /** The places any request may take; the rest, up to `max`, are kept for known callers. */
  readonly #open: number;

  /** Most requests in progress at once, over all connections. */
  readonly max: number;
  readonly #lingerMs: number;
  readonly #known: ((request: IncomingMessage) => boolean) | undefined;
  readonly #makeRoom: ((strangersOnly: boolean) => boolean) | undefined;

  /** @throws TypeError when `max` or `kept` is not a whole number in its range */
  constructor(options: AdmissionOptions) {
    const { max, kept = Math.floor(max / 10) } = options;
    if (!(Number.isSafeInteger(max) && max >= 1))
      throw new TypeError('maxRequestsInFlight must be a whole number from 1');
    if (!(Number.isSafeInteger(kept) && kept >= 0 && kept < max))
      throw new TypeError(
        `requestsKeptForKnownCallers must be a whole number from 0 to maxRequestsInFlight - 1 (${max - 1}), not ${kept}`,
      );
    this.max = max;
    this.#open = max - kept;
    this.#lingerMs = options.lingerMs;
    this.#known = options.known;
    this.#makeRoom = options.makeRoom;
  }

  /** Requests in progress now; for tests. */
  get inProgress(): number {
    return this.#inProgress;
  }

  /**
   * Runs `start` once the answers before this request on its connection are sent, for a request that arrived
   * while one of them was unfinished (`response.socket` is `null`: Node gives a response its connection at once
   * otherwise); runs nothing when the connection pipelined past the bound. The promise settles when `start`'s
   * does, or at once when nothing is run.
   */
  queue(
    request: IncomingMessage,
    response: ServerResponse,
    start: () => Promise<void>,
  ): Promise<void> {
    const socket = request.socket as ServerSocket;
    if (socket[CLOSING]) return DONE;
    const waiting = (socket[WAITING] ?? 0) + 1;
    if (waiting > MAX_PIPELINED) {
      closeWhenOwedAreSent(socket, response, this.#lingerMs);
      return DONE;
    }
    socket[WAITING] = waiting;
    // Not read further while an answer is unfinished: Node's own pause for answers that back up, which it
    // lifts once they drain.
    if (!socket._paused) {
      socket._paused = true;
      socket.pause();
    }
    return new Promise((resolve) => {
      response.once('socket', () => {
        const left = (socket[WAITING] = (socket[WAITING] ?? 1) - 1);
        if (left === 0) response.once('finish', () => resumeReading(socket));
        void start().then(resolve);
      });
    });
  }

  /**
   * Takes a place for `request` on its connection; `false` when `max` requests are in progress, or when the
   * places left are kept for known callers and the request's is not one. The places of a
   * connection that closes are given back at once, not when its handlers notice (a body cut off is noticed
   * within a second, an end-system call when it ends): a flood whose connections are closed to make room would
   * otherwise hold places no connection holds. One listener per connection, none per request.
   */
  take(request: IncomingMessage): boolean {
    const inProgress = this.#inProgress;
    if (inProgress >= this.#open) {
      const known = this.#known?.(request) === true;
      // No place for this request: a body on its way makes room, a stranger's only for a stranger, so that
      // strangers never hold more than the open places (ARCHITECTURE.md, D27).
      if ((inProgress >= this.max || !known) && this.#makeRoom?.(!known) !== true) return false;
    }
    const socket = request.socket;
    this.#inProgress++;
    const held = (socket as HoldingSocket)[this.#held];
    if (held === undefined) {
      socket.once('close', () => {
        this.#inProgress -= (socket as HoldingSocket)[this.#held] ?? 0;
        (socket as HoldingSocket)[this.#held] = 0;
      });
      (socket as HoldingSocket)[this.#held] = 1;
    } else (socket as HoldingSocket)[this.#held] = held + 1;
    return true;
  }

  /** Gives back a place taken on `socket`, unless its closing gave it back already. */
  release(socket: Socket): void {
    const held = (socket as HoldingSocket)[this.#held] ?? 0;
    if (held === 0) return;
    (socket as HoldingSocket)[this.#held] = held - 1;
    this.#inProgress--;
  }
}

/** What an {@link Admission} admits. @internal */
export interface AdmissionOptions {
  /** Most requests in progress at once, over all connections. */
  readonly max: number;
  /** How long a connection closed for pipelining may take to read the answers it is owed. */
  readonly lingerMs: number;
  /** How many of the `max` places only known callers may take (ARCHITECTURE.md, D27); a tenth by default. */
  readonly kept?: number | undefined;
  /** Whether a request comes from a known caller; asked only when the places left are all kept. */
  readonly known?: ((request: IncomingMessage) => boolean) | undefined;
  /**
   * Refuses one request whose body is still arriving, when no place is left for a newcomer: any caller's for a
   * known caller, only a stranger's for a stranger (`strangersOnly`); whether one was refused.
   */
  readonly makeRoom?: ((strangersOnly: boolean) => boolean) | undefined;
}

/** A socket with the places it holds of each {@link Admission}, under a symbol of that admission's own. */
type HoldingSocket = Socket & Record<symbol, number | undefined>;
