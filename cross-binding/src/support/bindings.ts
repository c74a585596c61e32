import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve as serveFetch } from '@hono/node-server';
import express from 'express';
import express4 from 'express4';
import { Hono } from 'hono';
import type { Connector, ParameterEntry } from '@connector-sdk/core';
import { connectorMiddleware } from '@connector-sdk/express';
import { createFetchHandler } from '@connector-sdk/fetch';
import { serve, type ServeOptions } from '@connector-sdk/node';
import { postInitialize, sessionOf } from './platform-calls.js';

/** A connector served by one binding on 127.0.0.1. */
export interface Running {
  /** The server's origin, such as `http://127.0.0.1:40123`. */
  readonly origin: string;
  /** Open connections to the server, to check that none is left behind. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

/** How a test serves a connector: the binding's options, and one of the server around the fetch rows. */
export interface StartOptions extends ServeOptions {
  /**
   * Whether `@hono/node-server` reads a body the handler left unread and closes the connection 500 ms after
   * the answer, whatever is still arriving (its `autoCleanupIncoming`, on by default). Off, the binding's own
   * lingering discard of that body (`lingerTimeoutMs`) is all that keeps the connection readable. Only the
   * fetch rows run on that server.
   *
   * @default true
   */
  readonly serverDrain?: boolean;
}

/** One row of the matrix: how to serve a connector with a binding. */
export interface Binding {
  readonly name: string;
  /** Mounted at the versioned base, so other versions never reach the connector (the app answers them). */
  readonly versionedMount?: boolean;
  /** A body parser reads the body first; its own rules apply (it has no body timeout). */
  readonly parserFirst?: boolean;
  /** The binding runs the server itself, so header timeouts and unparsable requests are its to answer. */
  readonly ownsServer?: boolean;
  /**
   * Starts the server; options only a server owner has (header timeouts) are ignored by the others, except
   * `keepAliveTimeoutMs`, which the servers made here for the other rows take too.
   */
  start(connector: Connector, options: StartOptions): Promise<Running>;
}

const countConnections = (server: Server) => () =>
  new Promise<number>((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );

/** Node's keep-alive timeout from the options, on a server made here (`serve` sets its own). */
function keepAlive(server: Server, { keepAliveTimeoutMs }: StartOptions): void {
  if (keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = keepAliveTimeoutMs;
}

function listen(server: Server, options: StartOptions): Promise<Running> {
  keepAlive(server, options);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        connections: countConnections(server),
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}

type ExpressFactory = typeof express;
const expressApp =
  (factory: ExpressFactory, mount: string | undefined, parser?: 'json' | 'urlencoded') =>
  (connector: Connector, options: StartOptions) => {
    const app = factory();
    if (parser) app.use(factory[parser]());
    if (mount) app.use(mount, connectorMiddleware(connector, options));
    else app.use(connectorMiddleware(connector, options));
    return listen(createServer(app as unknown as RequestListener), options);
  };

function fetchServer(
  fetch: (request: Request) => Response | Promise<Response>,
  options: StartOptions,
): Promise<Running> {
  const init = {
    fetch,
    port: 0,
    hostname: '127.0.0.1',
    autoCleanupIncoming: options.serverDrain ?? true,
  };
  return new Promise((resolve) => {
    const server = serveFetch(init, (info) => {
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        connections: countConnections(server as Server),
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as Server).closeAllConnections();
          }),
      });
    });
    keepAlive(server as Server, options);
  });
}

/** Every binding, each on a real server. Adding a binding is adding a row. */
export const bindings: readonly Binding[] = [
  {
    name: 'node',
    ownsServer: true,
    start: async (connector, options) => {
      const running = await serve(connector, { ...options, port: 0 });
      return {
        origin: running.url,
        connections: countConnections(running.server),
        close: () => running.close(),
      };
    },
  },
  { name: 'express 5 at /sdk/api', start: expressApp(express, '/sdk/api') },
  {
    name: 'express 5 at /sdk/api/1.0',
    versionedMount: true,
    start: expressApp(express, '/sdk/api/1.0'),
  },
  {
    name: 'express 5 + express.json() at the root',
    parserFirst: true,
    start: expressApp(express, undefined, 'json'),
  },
  {
    name: 'express 5 + express.urlencoded() at /sdk/api',
    start: expressApp(express, '/sdk/api', 'urlencoded'),
  },
  {
    name: 'express 4 at /sdk/api/1.0',
    versionedMount: true,
    start: expressApp(express4, '/sdk/api/1.0'),
  },
  {
    name: 'express 4 + express.json() at the root',
    parserFirst: true,
    start: expressApp(express4, undefined, 'json'),
  },
  {
    name: 'fetch',
    start: (connector, options) => fetchServer(createFetchHandler(connector, options), options),
  },
  {
    name: 'fetch in a Hono app',
    start: (connector, options) => {
      const handler = createFetchHandler(connector, options);
      const app = new Hono();
      app.get('/health', (c) => c.text('ok'));
      app.all('/sdk/*', (c) => handler(c.req.raw, c.env));
      return fetchServer(app.fetch, options);
    },
  },
];

/**
 * Initializes one session on a running connector, as the platform does, and answers its replayed headers (the
 * session every later call of a test carries).
 */
export async function initializeSession(
  running: Running,
  entries: readonly ParameterEntry[],
): Promise<Record<string, string>> {
  return sessionOf(
    await postInitialize(running.origin, entries, { sdkSessionId: 's-1', systemId: 'sys-1' }),
  );
}
