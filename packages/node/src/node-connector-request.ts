import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConnectorError, type ConnectorRequest } from '@connector-sdk/core';
import { readBody, type BodyLimits } from './read-body.js';

/** What a framework built on the node binding already knows about a request. */
export interface NodeRequestOverrides {
  /** The request target to route, when it differs from `request.url` (a framework mounted the listener). */
  readonly url?: string | undefined;
  /** The body, already parsed by a framework. */
  readonly body?: unknown;
  /** Reads the body as text, when a framework already read it. */
  readonly text?: (() => Promise<string>) | undefined;
}

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?]*/i;

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
 * the rest of the binding's work on a later call (issue 8).
 *
 * @internal
 */
export class NodeConnectorRequest implements ConnectorRequest {
  readonly method: string;
  readonly path: string;
  readonly query: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /** Reading the body failed part-way, so the rest of it is still on the connection. */
  bodyAbandoned = false;
  readonly #request: IncomingMessage;
  readonly #response: ServerResponse;
  readonly #limits: BodyLimits;
  readonly #text: (() => Promise<string>) | undefined;
  #controller: AbortController | undefined;

  constructor(
    request: IncomingMessage,
    response: ServerResponse,
    options: { readonly limits: BodyLimits; readonly overrides: NodeRequestOverrides | undefined },
  ) {
    const overrides = options.overrides;
    let target = overrides?.url ?? request.url ?? '/';
    // Absolute-form targets (`GET http://host/path`) are allowed by RFC 9112 §3.2.2.
    if (!target.startsWith('/')) target = target.replace(ABSOLUTE_FORM, '') || '/';
    const mark = target.indexOf('?');
    this.method = request.method ?? 'GET';
    this.path = mark === -1 ? target : target.slice(0, mark);
    // The text after `?`: core parses it as URLSearchParams would, without making one.
    this.query = mark === -1 ? undefined : target.slice(mark + 1);
    this.headers = plainHeaders(request.headers);
    this.body = overrides?.body;
    this.#text = overrides?.text;
    this.#request = request;
    this.#response = response;
    this.#limits = options.limits;
  }

  /** Reads the body within the limits; on failure the rest of the body is left unread. */
  text(): Promise<string> {
    if (this.#text) return this.#text();
    return readBody(this.#request, this.#limits).catch((error: unknown) => {
      this.bodyAbandoned = true;
      throw error;
    });
  }

  /**
   * The body's bytes as they arrive, for an operation that streams its body (an upload): no size bound here
   * (the handler applies its own), but at most `timeoutMs` between two chunks. Stopping early leaves the rest
   * unread: the connection then closes gracefully after the answer, as for any body not read.
   */
  bytes(): AsyncIterable<Uint8Array> {
    const text = this.#text;
    if (text)
      return (async function* fromText() {
        yield Buffer.from(await text());
      })();
    const request = this.#request;
    const timeoutMs = this.#limits.timeoutMs;
    const abandon = () => {
      if (!request.complete) this.bodyAbandoned = true;
    };
    return {
      [Symbol.asyncIterator]: () => {
        const chunks = request.iterator({ destroyOnReturn: false });
        return {
          next: async () => {
            let timer: NodeJS.Timeout | undefined;
            const late = new Promise<never>((_, reject) => {
              timer = setTimeout(() => {
                abandon();
                reject(
                  new ConnectorError(
                    'REQUEST_TIMEOUT',
                    `The request body stopped arriving for ${timeoutMs} ms`,
                  ),
                );
              }, timeoutMs);
              timer.unref();
            });
            try {
              return (await Promise.race([chunks.next(), late])) as IteratorResult<Uint8Array>;
            } catch (error) {
              abandon();
              if (error instanceof ConnectorError) throw error;
              throw new ConnectorError('BAD_REQUEST', 'The request body was cut off', {
                cause: error,
              });
            } finally {
              clearTimeout(timer);
            }
          },
          return: async () => {
            abandon();
            await chunks.return?.();
            return { done: true, value: undefined };
          },
        };
      },
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
