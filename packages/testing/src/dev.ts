/**
 * The development loop: {@link startDevServer} serves a connector on 127.0.0.1, loads it again when its sources
 * change (sessions survive, the last scenario runs again and the terminal shows what changed), and serves the
 * dev console, a page that drives the connector as the platform does and saves what it did as a test.
 *
 * ```ts
 * import { startDevServer } from '@connector-sdk/testing/dev';
 * ```
 *
 * @module dev
 */
export {
  startDevServer,
  type DevServer,
  type DevServerOptions,
  type ReloadOutcome,
} from './dev/start-dev-server.js';
