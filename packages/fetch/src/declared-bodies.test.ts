// On the fetch binding served by @hono/node-server: a declared Content-Length must not hold the body budget
// before its bytes come (the suite, shared with the node binding, says how it is checked).
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { describeDeclaredBodies } from '../../node/test/declared-bodies.js';
import { createFetchHandler } from './index.js';

describeDeclaredBodies(
  'fetch binding: declared request bodies and the body budget',
  (connector, options) =>
    new Promise((resolve) => {
      const handler = createFetchHandler(connector, options);
      const server = serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, () => {
        const { port } = server.address() as AddressInfo;
        resolve({
          server: server as Server,
          port,
          base: `http://127.0.0.1:${port}/sdk/api/1.0`,
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              (server as Server).closeAllConnections();
            }),
        });
      });
    }),
);
