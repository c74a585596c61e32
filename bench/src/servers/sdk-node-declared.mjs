// @connector-sdk/node serving the connector whose entity read is declared (declared.mjs).
import { serve } from '@connector-sdk/node';
import { BENCH_EGRESS } from '../connector.mjs';
import { declaredConnector as connector } from '../declared.mjs';
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
