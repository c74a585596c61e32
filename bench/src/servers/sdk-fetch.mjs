// @connector-sdk/fetch served on Node by @hono/node-server, the usual way to run a fetch handler on Node.
import { createFetchHandler } from '@connector-sdk/fetch';
import { createAdaptorServer } from '@hono/node-server';
import { BENCH_EGRESS, connector } from '../connector.mjs';
import { BENCH_SESSION_KEY } from '../session-mac.mjs';

/** @param {{ port: number }} options */
export async function start({ port }) {
  const server = createAdaptorServer({
    fetch: createFetchHandler(connector, { sessionKey: BENCH_SESSION_KEY, egress: BENCH_EGRESS }),
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: server.address().port,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
