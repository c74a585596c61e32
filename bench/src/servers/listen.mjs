import { createServer } from 'node:http';

/**
 * Serves a request listener on 127.0.0.1.
 *
 * @param {import('node:http').RequestListener} listener - an Express app or any listener
 * @param {number} port - 0 for a free port
 */
export async function listen(listener, port) {
  const server = createServer(listener);
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
