import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';

/** How long, and how many bytes, a connection is read and discarded after an answer to an unread body. */
export interface LingerLimits {
  /** Longest time to keep discarding, in milliseconds. */
  readonly ms: number;
  /** Most bytes to discard. */
  readonly bytes: number;
}

/**
 * Closes the connection of a request whose body was not read (refused as too large, too slow, or never asked
 * for) so that the client can read the answer: after the answer is written, only the sending side is closed,
 * and what the client still sends is read and thrown away until its body ends, up to `limits` (ARCHITECTURE.md,
 * D15). Closing at once, as Node does after `Connection: close`, makes the kernel reset the connection
 * while the client is still writing its body, and a client that writes before it reads then loses the answer
 * (`EPIPE`, `ECONNRESET`). Servers have long closed this way (Apache's and nginx's lingering close).
 *
 * Call it after writing an answer with `Connection: close`.
 *
 * @internal
 */
export function lingerThenClose(
  request: IncomingMessage,
  response: ServerResponse,
  limits: LingerLimits,
): void {
  const socket = request.socket as Socket | null;
  if (!socket || socket.destroyed) return;
  // Node calls `destroySoon` once the answer is written: it ends the sending side, then destroys the socket as
  // soon as that is flushed. Only its first half is done here; the socket is destroyed when the body has ended.
  socket.destroySoon = function endOnly(this: Socket) {
    if (this.writable) this.end();
  };
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    request.off('data', onData).off('end', onEnd);
    // The body has ended: close once the answer is handed to the socket, and destroy once it has left.
    if (response.writableFinished) Socket.prototype.destroySoon.call(socket);
    else response.once('finish', () => Socket.prototype.destroySoon.call(socket));
  };
  const giveUp = () => {
    clearTimeout(timer);
    request.off('data', onData).off('end', onEnd);
    socket.destroy();
  };
  const onData = (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > limits.bytes) giveUp();
  };
  const onEnd = () => close();
  const timer = setTimeout(giveUp, limits.ms);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  if (request.complete) {
    close();
    return;
  }
  request.on('data', onData).on('end', onEnd);
  request.resume();
}
