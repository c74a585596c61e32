// @connector-sdk/node: the connector served with `serve`, as the README shows it.
import { serve } from '@connector-sdk/node';
import { BENCH_EGRESS, connector } from '../connector.mjs';
import { BENCH_SESSION_KEY } from '../session-mac.mjs';

/** @param {{ port: number }} options */
export async function start({ port }) {
  const running = await serve(connector, {
    port,
    host: '127.0.0.1',
    sessionKey: BENCH_SESSION_KEY,
    egress: BENCH_EGRESS,
  });
  return { port: running.port, close: () => running.close() };
}
