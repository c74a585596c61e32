import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Where a connection stands: {@link WAITING} for its first request head, {@link HEARD} one, or {@link REFUSED}. */
const STATE = Symbol('connector-sdk.connection-state');
const WAITING = 0;
const HEARD = 1;
/** Answered 503 at the cap: it holds no place and is closed after its answer. */
const REFUSED = 2;

interface PooledSocket extends Socket {
  [STATE]: typeof WAITING | typeof HEARD | typeof REFUSED;
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
 * connection that has not delivered a complete request head yet is closed, else the oldest one idle between
 * keep-alive requests. Only when every connection has a request in flight is the new one refused (issue 31:
 * refusing new connections let about 1,000 sockets that sent nothing keep the platform out for good). nginx
 * does the same when it runs out of connections: it closes its "reusable" ones, those waiting for a request.
 *
 * What a connection is doing is read only when the cap is reached: a request costs one property read (a store
 * on a connection's first), with no listener or timer (issue 18).
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

  constructor(max: number) {
    if (!(max >= 1)) throw new TypeError('maxConnections must be at least 1');
    this.#max = max;
  }

  /**
   * Takes a new connection. Returns `false` when it must be refused because every connection has a request
   * in flight; the caller then answers its request 503 and closes it.
   */
  admit(socket: Socket): boolean {
    const pooled = socket as PooledSocket;
    pooled[STATE] = WAITING;
    socket.once('close', () => {
      this.#open.delete(pooled);
      this.#waiting.delete(pooled);
      this.#refused.delete(pooled);
    });
    if (this.#open.size >= this.#max) {
      const victim = this.#oldestWaiting() ?? this.#oldestIdle();
      if (victim === undefined) {
        pooled[STATE] = REFUSED;
        this.#refused.add(pooled);
        return false;
      }
      this.#open.delete(victim);
      this.#waiting.delete(victim);
      victim.destroy();
    }
    this.#open.add(pooled);
    this.#waiting.add(pooled);
    return true;
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

  /** Whether any connection still has answer bytes queued: those Node's `closeIdleConnections()` would cut. */
  sending(): boolean {
    for (const socket of this.#open) if (socket.writableLength > 0) return true;
    for (const socket of this.#refused) if (socket.writableLength > 0) return true;
    return false;
  }

  #oldestWaiting(): PooledSocket | undefined {
    // Those that have sent a request since they came are dropped on the way: each leaves this set once.
    for (const socket of this.#waiting) {
      if (socket[STATE] === WAITING) return socket;
      this.#waiting.delete(socket);
    }
    return undefined;
  }

  #oldestIdle(): PooledSocket | undefined {
    // Reached only when every connection has sent a request: each is looked at, at most `max` of them.
    for (const socket of this.#open) {
      if (socket._httpMessage === null && socket.writableLength === 0) return socket;
    }
    return undefined;
  }
}
