import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConnectorError, type ConnectorRequest } from '@connector-sdk/core';
import { bodyTimer, originForm, stalledBody } from '@connector-sdk/core/internal';
import { readBody, type BodyLimits } from './read-body.js';

/** What a framework built on the node binding already knows about a request. */
export interface NodeRequestOverrides {
  /** The request target to route, when it differs from `request.url` (a framework mounted the listener). */
  readonly url?: string | undefined;
  /**
   * The request target as the client sent it, when the framework rewrote `request.url` (Express's
   * `originalUrl`): the core handler judges it by the SDK's one rule for request targets.
   */
  readonly target?: string | undefined;
  /** The body, already parsed by a framework. */
  readonly body?: unknown;
  /** Reads the body as text, when a framework already read it. */
  readonly text?: (() => Promise<string>) | undefined;
  /** The body's bytes, when a framework already read it as bytes (`express.raw()`). */
  readonly bytes?: (() => AsyncIterable<Uint8Array>) | undefined;
}

/** Node's header values are strings except `set-cookie`'s; the core handler takes strings only. */
function plainHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  for (const name in headers) {
    if (typeof headers[name] !== 'string') {
      const plain: Record<string, string> = {};
      for (const [key, value] of Object.entries(headers)) {
        if (value !== undefined) plain[key] = Array.isArray(value) ? value.join(', ') : value;
      }
      return plain;
    }
  }
  return headers as Record<string, string>;
}

/**
 * A Node request as the core handler takes it. The body is read, and the `AbortSignal` made, only when the
 * handler asks: most calls need neither, and an `AbortController` with its `close` listener cost more than
 * the rest of the binding's work on a later call (ARCHITECTURE.md, D21).
 *
 * @internal
 */
export class NodeConnectorRequest implements ConnectorRequest {
  readonly method: string;
  readonly path: string;
  readonly target: string;
  readonly query: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** Reading the body failed part-way, so the rest of it is still on the connection. */
  bodyAbandoned = false;
  readonly #request: IncomingMessage;
  readonly #response: ServerResponse;
  readonly #limits: BodyLimits;
  readonly #text: (() => Promise<string>) | undefined;
  readonly #bytes: (() => AsyncIterable<Uint8Array>) | undefined;
  #controller: AbortController | undefined;

  constructor(
    request: IncomingMessage,
    response: ServerResponse,
    options: { readonly limits: BodyLimits; readonly overrides: NodeRequestOverrides | undefined },
  ) {
    const overrides = options.overrides;
    const url = request.url ?? '/';
    // Core judges the target as sent, absolute form (RFC 9112 §3.2.2) included, and routes by its path.
    this.target = overrides?.target ?? url;
    const target = originForm(overrides?.url ?? url);
    const mark = target.indexOf('?');
    this.method = request.method ?? 'GET';
    this.path = mark === -1 ? target : target.slice(0, mark);
    // The text after `?`: core parses it as URLSearchParams would, without making one.
    this.query = mark === -1 ? undefined : target.slice(mark + 1);
    this.headers = plainHeaders(request.headers);
    this.body = overrides?.body;
    this.#text = overrides?.text;
    this.#bytes = overrides?.bytes;
    this.#request = request;
    this.#response = response;
    this.#limits = options.limits;
  }

  /** The peer's address, read only when the handler judges who may initialize (`initializeFrom`). */
  get remoteAddress(): string | undefined {
    return this.#request.socket.remoteAddress;
  }

  /** Reads the body within the limits; on failure the rest of the body is left unread. */
  text(): Promise<string> {
    if (this.#text) return this.#text();
    return readBody(this.#request, this.#limits, () => {
      this.bodyAbandoned = true;
    });
  }

  /**
   * The body's bytes as they arrive, for an operation that streams its body (an upload): no size bound here
   * (the handler applies its own), but the first chunk within `bodyFirstBytesTimeoutMs` of the head and at most
   * `timeoutMs` between two chunks after it. Stopping early leaves the rest
   * unread: the connection then closes gracefully after the answer, as for any body not read.
   */
  bytes(): AsyncIterable<Uint8Array> {
    const overridden = this.#bytes;
    if (overridden) return overridden();
    if (this.#text)
      return failingBytes(
        new ConnectorError(
          'BAD_REQUEST',
          'A middleware before the connector read the upload as text, which loses its bytes; mount the connector before it',
        ),
      );
    const request = this.#request;
    const timeoutMs = this.#limits.timeoutMs;
    // The first chunk must come within the first-bytes time, as for any body: an upload is no way to hold a
    // request open longer by sending nothing.
    let started = false;
    const abandon = () => {
      if (!request.complete) this.bodyAbandoned = true;
    };
    const cutOff = (cause?: unknown) =>
      new ConnectorError('BAD_REQUEST', 'The request body was cut off', { cause });
    // Read with `read()` and listeners removed after each chunk, as readBody does: nothing is left waiting on
    // the request, so a body that stalls is answered 408 at once (an async iterator of the stream kept its
    // return() waiting behind the read that never came).
    const next = (): Promise<IteratorResult<Uint8Array>> => {
      const chunk = request.read() as Buffer | null;
      if (chunk !== null) {
        started = true;
        return Promise.resolve({ done: false, value: chunk });
      }
      if (request.readableEnded) return Promise.resolve({ done: true, value: undefined });
      if (request.destroyed || request.readableAborted) {
        abandon();
        return Promise.reject(cutOff());
      }
      return new Promise((resolve, reject) => {
        const finish = () => {
          clearTimeout(timer);
          request
            .off('readable', onReadable)
            .off('end', onEnd)
            .off('error', onError)
            .off('close', onClose);
        };
        const onReadable = () => {
          const value = request.read() as Buffer | null;
          if (value === null) return;
          started = true;
          finish();
          resolve({ done: false, value });
        };
        const onEnd = () => {
          finish();
          resolve({ done: true, value: undefined });
        };
        const onError = (error: Error) => {
          finish();
          abandon();
          reject(cutOff(error));
        };
        const onClose = () => {
          if (request.readableEnded) return;
          finish();
          abandon();
          reject(cutOff());
        };
        const waitMs = started ? timeoutMs : this.#limits.watch.firstBytesMs;
        const timer = bodyTimer(waitMs, () => {
          finish();
          abandon();
          reject(stalledBody(started, waitMs));
        });
        request
          .on('readable', onReadable)
          .on('end', onEnd)
          .on('error', onError)
          .on('close', onClose);
      });
    };
    return {
      [Symbol.asyncIterator]: () => ({
        next,
        return: () => {
          abandon();
          return Promise.resolve({ done: true, value: undefined });
        },
      }),
    };
  }

  /** Fires when the client goes away before the answer is written. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController();
      const response = this.#response;
      this.#controller = controller;
      if (response.destroyed) {
        if (!response.writableFinished) controller.abort();
      } else {
        response.once('close', () => {
          if (!response.writableFinished) controller.abort();
        });
      }
    }
    return this.#controller.signal;
  }
}

/** A body that fails as soon as it is read. */
function failingBytes(error: ConnectorError): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }),
  };
}
