import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Where a connection stands: {@link WAITING} for its first request head, {@link HEARD} one, or {@link REFUSED}. */
const STATE = Symbol('connector-sdk.connection-state');
/** When the connection was admitted, on `performance.now()`'s clock. */
const OPENED = Symbol('connector-sdk.connection-opened');
/**
 * How long a new connection is spared while older ones can make room. A flood whose closed sockets reconnect at
 * once, each sending a complete head at once, left the platform's own new connection the only one without a
 * head, and so the first closed, in the milliseconds before its head arrived (found by review). A real client
 * sends its head with its first packet: far within this.
 */
const GRACE_MS = 250;
/** The bytes of answers the kernel had taken from this connection when its sending was last seen to stall. */
const SENT = Symbol('connector-sdk.connection-sent');
/** Since when (on `performance.now()`'s clock) this connection's answer has waited, untaken, at `SENT` bytes. */
const STALLED = Symbol('connector-sdk.connection-stalled');
/** The address the connection came from, as it was when it was admitted. */
const ADDRESS = Symbol('connector-sdk.connection-address');
const WAITING = 0;
const HEARD = 1;
/** Answered 503 at the cap: it holds no place and is closed after its answer. */
const REFUSED = 2;

interface PooledSocket extends Socket {
  [STATE]: typeof WAITING | typeof HEARD | typeof REFUSED;
  [OPENED]: number;
  [ADDRESS]: string;
  [SENT]?: number | undefined;
  [STALLED]?: number | undefined;
  /**
   * The answer in progress on this connection, `null` once it has been sent: Node's own, set and cleared by
   * `node:http` (its `closeIdleConnections()` reads it the same way). Holding the answer ourselves would keep
   * each connection's last request alive until its next one, and V8 then promotes them: the bench's memory run
   * grew the heap from 28 to 44 MB that way. Should a Node version drop it, no connection that has sent a
   * request is taken for idle.
   */
  readonly _httpMessage?: ServerResponse | null;
}

/**
 * The connections `serve()` holds, at most `max` of them. At the cap a new connection makes room: the oldest
 * connection that has not delivered a complete request head yet is closed, else the one whose request body is
 * still to come and that has sent the least, else the newest one idle between keep-alive requests; each of
 * those only past a grace period of 250 ms, unless every silent connection is younger. Only when every
 * connection has a request in flight is the new one refused (refusing new connections let about 1,000 sockets
 * that sent nothing keep the platform out for good). nginx does the same when it runs out of connections: it
 * closes its "reusable" ones, those waiting for a request.
 *
 * What a connection is doing is read only when the cap is reached: a request costs one property read (a store
 * on a connection's first), with no listener or timer: `serve()` pays nothing per request below the cap.
 *
 * @internal
 */
export class ConnectionPool {
  /** Connections holding a place, oldest first. */
  readonly #open = new Set<PooledSocket>();
  /** Connections refused at the cap, until they close: their answers may still be on their way. */
  readonly #refused = new Set<PooledSocket>();
  /** Connections that had sent no request head when last looked at, oldest first. */
  readonly #waiting = new Set<PooledSocket>();
  readonly #max: number;
  readonly #refusedLingerMs: number;
  /** Newcomers past the cap, taken or refused at the end of this turn of the event loop. */
  #arrivals: PooledSocket[] = [];
  /** How many places each address holds. */
  readonly #byAddress = new Map<string, number>();

  /**
   * @param max - most connections holding a place
   * @param refusedLingerMs - how long a refused connection may take to send its request before it is closed
   */
  constructor(max: number, refusedLingerMs: number) {
    if (!(max >= 1)) throw new TypeError('maxConnections must be at least 1');
    this.#max = max;
    this.#refusedLingerMs = refusedLingerMs;
  }

  /**
   * Takes a new connection. At the cap, room is made once the connections' pending reads have been handled (at
   * the end of this turn of the event loop), not at once: a connection whose request head has already arrived
   * is then known to have sent it, so a newcomer never closes the platform's own new connection in the moment
   * between its connecting and its head being read (found under a flood that reconnects at once). Should every
   * older connection have a request in flight, the newcomer is refused instead: its request is answered 503 and
   * it is closed (within `refusedLingerMs` if it sends none).
   */
  admit(socket: Socket): void {
    const pooled = socket as PooledSocket;
    pooled[STATE] = WAITING;
    pooled[OPENED] = performance.now();
    pooled[ADDRESS] = socket.remoteAddress ?? '';
    socket.once('close', () => {
      this.#release(pooled);
      this.#refused.delete(pooled);
    });
    if (this.#open.size + this.#arrivals.length < this.#max) {
      this.#hold(pooled);
      return;
    }
    this.#arrivals.push(pooled);
    if (this.#arrivals.length === 1) setImmediate(() => this.#makeRoom());
  }

  /** Takes this turn's newcomers past the cap: each closes an older connection, or is refused. */
  #makeRoom(): void {
    const arrivals = this.#arrivals;
    this.#arrivals = [];
    const now = performance.now();
    // Connections past the grace period first. A flood that turned over every place within it still makes
    // room, from a body still to come, else the oldest silent connection, rather than pile up refused sockets.
    const before = now - GRACE_MS;
    for (const newcomer of arrivals) {
      if (newcomer.destroyed) continue;
      const victim =
        this.#open.size < this.#max
          ? undefined
          : (this.#oldestWaiting(before) ??
            this.#slowestBody(before) ??
            this.#newestIdle(before) ??
            this.#slowestBody(now) ??
            this.#oldestWaiting(now) ??
            this.#overShare(newcomer));
      // A newcomer whose request already came is being answered: it keeps its place, over the cap until then.
      if (victim === undefined && this.#open.size >= this.#max && newcomer[STATE] === WAITING) {
        this.#refuse(newcomer);
        continue;
      }
      if (victim !== undefined) {
        this.#release(victim);
        victim.destroy();
      }
      this.#hold(newcomer);
    }
  }

  #hold(socket: PooledSocket): void {
    this.#open.add(socket);
    this.#waiting.add(socket);
    const address = socket[ADDRESS];
    this.#byAddress.set(address, (this.#byAddress.get(address) ?? 0) + 1);
  }

  #release(socket: PooledSocket): void {
    this.#waiting.delete(socket);
    if (!this.#open.delete(socket)) return;
    const address = socket[ADDRESS];
    const left = (this.#byAddress.get(address) ?? 1) - 1;
    if (left === 0) this.#byAddress.delete(address);
    else this.#byAddress.set(address, left);
  }

  /**
   * When every connection has a request in flight: the newest connection of the address that holds more than
   * half the places, for a newcomer from another address, even with a request in flight (its answer is lost:
   * the client may send it again). One address cannot keep every other out; the connections of a reverse
   * proxy, all from one address, never close each other.
   */
  #overShare(newcomer: PooledSocket): PooledSocket | undefined {
    let widest: string | undefined;
    let most = 0;
    for (const [address, count] of this.#byAddress)
      if (count > most) [widest, most] = [address, count];
    if (widest === undefined || widest === newcomer[ADDRESS] || most * 2 <= this.#max)
      return undefined;
    let newest: PooledSocket | undefined;
    for (const socket of this.#open) if (socket[ADDRESS] === widest) newest = socket;
    return newest;
  }

  /** Refuses a newcomer: its request is answered 503, and it is closed if it sends none in time. */
  #refuse(socket: PooledSocket): void {
    socket[STATE] = REFUSED;
    this.#refused.add(socket);
    const timer = setTimeout(() => socket.destroy(), this.#refusedLingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  }

  /**
   * Notes that a request head has arrived on `socket`. Returns `false` when the connection was refused at the
   * cap.
   */
  heard(socket: Socket): boolean {
    const pooled = socket as PooledSocket;
    const state = pooled[STATE];
    if (state === HEARD) return true;
    if (state === REFUSED) return false;
    pooled[STATE] = HEARD;
    return true;
  }

  /**
   * Closes the connections whose answer has waited, with none of it taken by the client, for `sendTimeoutMs` or
   * more: called every so often by `serve()`. An answer is taken as the kernel takes its bytes, so a slow reader
   * that keeps reading is never cut, while one that stops holds its answer (and its place) only that long.
   */
  closeStalled(sendTimeoutMs: number): void {
    const now = performance.now();
    const check = (socket: PooledSocket) => {
      const queued = socket.writableLength;
      if (queued === 0) {
        socket[STALLED] = undefined;
        return;
      }
      // Bytes handed to the kernel so far: Node counts the queued ones in `bytesWritten` too.
      const sent = socket.bytesWritten - queued;
      if (socket[STALLED] === undefined || socket[SENT] !== sent) {
        socket[SENT] = sent;
        socket[STALLED] = now;
      } else if (now - socket[STALLED] >= sendTimeoutMs) socket.destroy();
    };
    for (const socket of this.#open) check(socket);
    for (const socket of this.#refused) check(socket);
  }

  /** Whether any connection still has answer bytes queued: those Node's `closeIdleConnections()` would cut. */
  sending(): boolean {
    for (const socket of this.#open) if (socket.writableLength > 0) return true;
    for (const socket of this.#refused) if (socket.writableLength > 0) return true;
    return false;
  }

  #oldestWaiting(before: number): PooledSocket | undefined {
    // Those that have sent a request since they came are dropped on the way: each leaves this set once.
    for (const socket of this.#waiting) {
      if (socket[STATE] !== WAITING) this.#waiting.delete(socket);
      // Oldest first: once one is too young to take, so are the rest.
      else return socket[OPENED] <= before ? socket : undefined;
    }
    return undefined;
  }

  /**
   * The connection whose request is still waiting for its body and has sent the fewest bytes: a complete head
   * needs no credentials, so heads whose bodies never come held every place as surely as silent sockets did
   * (found by review). An upload under way has sent far more than such a head, so it is the last of them taken.
   */
  #slowestBody(before: number): PooledSocket | undefined {
    let slowest: PooledSocket | undefined;
    for (const socket of this.#open) {
      const request = socket._httpMessage?.req;
      if (request === undefined || request.complete || socket[OPENED] > before) continue;
      if (slowest === undefined || socket.bytesRead < slowest.bytesRead) slowest = socket;
    }
    return slowest;
  }

  /**
   * The newest connection idle between keep-alive requests: a platform's pooled connections are its oldest, while
   * a stranger that churns connections of one request each makes the newest (found by review: taking the oldest
   * closed the platform's own connection first).
   */
  #newestIdle(before: number): PooledSocket | undefined {
    // Reached only when no connection is waiting for a head or a body: each is looked at, at most `max` of them.
    let newest: PooledSocket | undefined;
    for (const socket of this.#open) {
      if (socket[OPENED] > before) break;
      if (socket._httpMessage === null && socket.writableLength === 0) newest = socket;
    }
    return newest;
  }
}
