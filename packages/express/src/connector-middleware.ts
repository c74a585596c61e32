import type { IncomingMessage, ServerResponse } from 'node:http';
import { ValidationError, type Connector } from '@connector-sdk/core';
import { createNodeHandler, sendError, type RequestListenerOptions } from '@connector-sdk/node';
import { bodyParserError } from './body-parser-error.js';

/** The parts of an Express request the binding reads; the same in Express 4 and 5. */
export interface ExpressRequestLike extends IncomingMessage {
  readonly baseUrl?: string;
  readonly originalUrl?: string;
  readonly body?: unknown;
  /** Set by body-parser 1 (`express.json()` and friends in Express 4) once it has read the body. */
  readonly _body?: boolean;
}

/** Express's `next`. */
export type NextFunction = (error?: unknown) => void;

/** The middleware that serves the connector. */
export type ConnectorRequestHandler = (
  request: ExpressRequestLike,
  response: ServerResponse,
  next: NextFunction,
) => void;

/** The error middleware that answers body-parser failures on the connector's paths with contract bodies. */
export type ConnectorErrorHandler = (
  error: unknown,
  request: ExpressRequestLike,
  response: ServerResponse,
  next: NextFunction,
) => void;

// A mount path ending in a version segment, such as `/sdk/api/1.0`.
const VERSIONED_MOUNT = /\/(\d+(?:\.\d+)*)$/;

/** A body that a body parser already read: parsed JSON is passed on, text and raw bytes are parsed by core. */
function alreadyRead(request: ExpressRequestLike) {
  // body-parser 1 (Express 4) sets `_body`; body-parser 2 (Express 5) leaves only a finished stream behind.
  const consumed =
    request._body === true || request.readableEnded || (request.complete && !request.readable);
  if (!consumed) return {};
  const { body } = request;
  if (body === undefined) return { text: async () => '' };
  if (typeof body === 'string') return { text: async () => body };
  if (Buffer.isBuffer(body)) {
    return {
      text: async () => {
        try {
          return new TextDecoder('utf-8', { fatal: true }).decode(body);
        } catch {
          throw new ValidationError('The request body is not valid UTF-8', {
            code: 'INVALID_JSON',
          });
        }
      },
    };
  }
  return { body };
}

/**
 * Express middleware serving a connector. Mount it at the versioned base (`/sdk/api/1.0`), at a prefix of your
 * choice (`/connectors/acme`, then the version follows), or at the app's root (it then answers under `prefix`,
 * default `/sdk/api`, and passes everything else on). Works with or without `express.json()` before it, on
 * Express 5 and 4.21+. Every failure on the connector's paths is a contract body, including body-parser errors;
 * other errors are left to the app.
 *
 * @param connector - a connector made with `defineConnector`
 * @param options - core handler options and body limits, as for `@connector-sdk/node`
 * @returns the middleware and its error handler, for `app.use(path, …)`
 * @example
 * ```ts
 * const app = express();
 * app.use('/sdk/api/1.0', connectorMiddleware(connector, { logger }));
 * ```
 */
export function connectorMiddleware(
  connector: Connector,
  options: RequestListenerOptions = {},
): [ConnectorRequestHandler, ConnectorErrorHandler] {
  const rootPrefix = (options.prefix ?? '/sdk/api').replace(/\/+$/, '');
  const handle = createNodeHandler(connector, { ...options, prefix: '' });

  /** The target below the base, starting with the version segment; `undefined` when the path is not ours. */
  const target = (request: ExpressRequestLike): string | undefined => {
    const url = request.url ?? '/';
    if (!request.baseUrl) {
      const full = request.originalUrl ?? url;
      return full.startsWith(`${rootPrefix}/`) ? full.slice(rootPrefix.length) : undefined;
    }
    const version = VERSIONED_MOUNT.exec(request.baseUrl)?.[1];
    return version === undefined ? url : `/${version}${url === '/' ? '' : url}`;
  };

  return [
    (request, response, next) => {
      const url = target(request);
      if (url === undefined) next();
      else void handle(request, response, { url, ...alreadyRead(request) });
    },
    (error, request, response, next) => {
      const answer = target(request) === undefined ? undefined : bodyParserError(error);
      if (answer) sendError(response, answer);
      else next(error);
    },
  ];
}
