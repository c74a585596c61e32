import type { ServerResponse } from 'node:http';
import type { Connector } from '@connector-sdk/core';
import { DEFAULT_BODY_LIMITS, originForm } from '@connector-sdk/core/internal';
import { createNodeHandler, type RequestListenerOptions } from '@connector-sdk/node';
import type { ExpressRequestLike } from './express-request.js';
import { bodyParserFailure, readParsedBody } from './parsed-body.js';

/** Express's `next`. */
export type NextFunction = (error?: unknown) => void;

/** The middleware that serves the connector. */
export type ConnectorRequestHandler = (
  request: ExpressRequestLike,
  response: ServerResponse,
  next: NextFunction,
) => void;

/** The error middleware that answers body-parser failures on the connector's paths with contract bodies. */
// eslint-disable-next-line max-params -- Express knows error middleware by its four parameters
export type ConnectorErrorHandler = (
  error: unknown,
  request: ExpressRequestLike,
  response: ServerResponse,
  next: NextFunction,
) => void;

// A mount path's last segment when it is a version, such as `/1.0` in `/sdk/api/1.0`.
const VERSION_SEGMENT = /\/\d+\.\d+$/;

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
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMITS.maxBytes;
  const handle = createNodeHandler(connector, options);

  /**
   * The target as the connector reads it, under its prefix; `undefined` when the path is not ours. Express
   * matches mount paths whatever their case, and the other bindings do not: a mount at the connector's own
   * prefix keeps the case the request used, so `/SDK/API/1.0/discover` is not found, as on the node binding.
   * A mount elsewhere (`/connectors/acme`) is read as the prefix.
   */
  const target = (request: ExpressRequestLike): string | undefined => {
    // Express keeps an absolute-form target's `http://host` in front of the mount-relative URL; the handler
    // judges that part on the target as sent.
    const url = originForm(request.url ?? '/');
    if (!request.baseUrl) {
      // Mounted at the root: only the prefix is ours (`/sdk/api`, `/sdk/api/…`, `/sdk/api?…`).
      const full = originForm(request.originalUrl ?? url);
      const rest = full.slice(rootPrefix.length);
      if (!full.startsWith(rootPrefix) || !/^(?:$|[/?])/.test(rest)) return undefined;
      return rest.startsWith('/') ? full : `${rootPrefix}/${rest}`;
    }
    const version = VERSION_SEGMENT.exec(request.baseUrl)?.[0] ?? '';
    const mount = request.baseUrl.slice(0, request.baseUrl.length - version.length);
    const prefix = mount.toLowerCase() === rootPrefix.toLowerCase() ? mount : rootPrefix;
    // Express hands the versioned base itself (`/sdk/api/1.0`) on as `/`.
    return `${prefix}${version}${version !== '' && url === '/' ? '' : url}`;
  };

  return [
    (request, response, next) => {
      const url = target(request);
      if (url === undefined) next();
      else
        void handle(request, response, {
          url,
          target: request.originalUrl,
          ...readParsedBody(request, bodyLimit),
        });
    },
    // eslint-disable-next-line max-params -- Express knows error middleware by its four parameters
    (error, request, response, next) => {
      const failure = bodyParserFailure(error);
      const url = failure && target(request);
      if (url === undefined) next(error);
      else void handle(request, response, { url, target: request.originalUrl, ...failure });
    },
  ];
}
