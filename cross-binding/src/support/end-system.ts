import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An end system on 127.0.0.1 that a test answers as it likes. */
export interface EndSystem {
  readonly server: Server;
  /** Its origin, such as `http://127.0.0.1:40123`. */
  readonly url: string;
  readonly port: number;
  /** Closes it, and every connection still open to it. */
  close(): Promise<void>;
}

/**
 * Starts an end system on 127.0.0.1, a port of its own. The default egress policy refuses loopback: a connector
 * that calls it is served with `egress: { allow: ['127.0.0.1'] }`, as an operator opens a private end system.
 */
export function startEndSystem(listener?: RequestListener): Promise<EndSystem> {
  const server = createServer(listener);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        server,
        url: `http://127.0.0.1:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
