// `npm run dev`: the connector on 127.0.0.1 for your end system, loaded again whenever you save one of its
// sources, and the dev console (at the address printed, with its token) to drive it as the platform does. It
// reads the end system from the environment (END_SYSTEM_URL, END_SYSTEM_USER, END_SYSTEM_PASSWORD: see
// src/end-system-env.ts) for the console's form, and lets the connector reach that host even when it is on
// this machine or a private network (and whatever CONNECTOR_SDK_EGRESS_ALLOW lists). Without those variables
// the form starts empty and the connector reaches public end systems only. Ctrl+C stops it.
import { startDevServer } from '@connector-sdk/testing/dev';
import { pino } from 'pino';
import { endSystemFromEnvironment } from './end-system-env.js';

const endSystem = endSystemFromEnvironment();
const configured = !('missing' in endSystem);
const dev = await startDevServer({
  connector: new URL('./connector.ts', import.meta.url),
  ...(configured
    ? {
        config: {
          url: endSystem.url,
          username: endSystem.username,
          password: { value: endSystem.password, sensitive: true },
        },
      }
    : {}),
  handlerOptions: {
    logger: pino({ level: process.env.LOG_LEVEL ?? 'info' }),
    // Without the variables, the handler reads CONNECTOR_SDK_EGRESS_ALLOW itself, as in production.
    ...(configured ? { egress: { allow: endSystem.egressAllow } } : {}),
  },
});
console.log(
  configured
    ? `For ${endSystem.url} as ${endSystem.username}; it may reach ${endSystem.egressAllow.join(', ')} besides public addresses.`
    : `Set ${endSystem.missing.join(', ')} to name your end system: the console's form then starts with it.`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void dev.close().then(() => process.exit(0)));
