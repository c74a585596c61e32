// @connector-sdk/node with validateAnswers: every operation's answer checked against its declared shape, as
// the testing kit runs it; what that check costs in production.
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
    validateAnswers: true,
  });
  return { port: running.port, close: () => running.close() };
}
