// `pnpm start:node-red`: the Node-RED the tests use, started for trying the connector by hand. It listens on
// 127.0.0.1 (port from NODE_RED_PORT, default 1880) with adminAuth, and prints a password made up for this run.
import { startNodeRed } from './node-red.js';

const nodeRed = await startNodeRed({
  port: Number(process.env.NODE_RED_PORT ?? 1880),
});
console.log(`Node-RED admin API on ${nodeRed.url}`);
console.log(
  `  user: ${nodeRed.username}  password: ${nodeRed.password}  (Ctrl-C to stop)`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void nodeRed.close().then(() => process.exit(0)));
}
