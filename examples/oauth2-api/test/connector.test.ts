// The conformance kit against your API and its authorization server: one test per contract rule (initialize,
// sessions, 401s, tenants, errors, secrets never leaking). It needs a real end system, named by the environment
// (see src/end-system-env.ts), and skips, saying what to set, where there is none:
//   END_SYSTEM_URL=https://api.example.com END_SYSTEM_TOKEN_URL=https://id.example.com/oauth/token \
//   END_SYSTEM_CLIENT_ID=… END_SYSTEM_CLIENT_SECRET=… npm test
import { describeConformance } from '@connector-sdk/testing/vitest';
import { it } from 'vitest';
import { oauth2Connector } from '../src/connector.js';
import { endSystemFromEnvironment } from '../src/end-system-env.js';

const endSystem = endSystemFromEnvironment();

if ('missing' in endSystem) {
  const why = `conformance against the end system: set ${endSystem.missing.join(', ')} to run it`;
  // Vitest's default reporter does not name a skipped test: say it where every reporter shows it.
  console.info(`skipped: ${why}`);
  it.skip(why);
} else {
  const secrets = new Set(['clientSecret', 'password']);
  const config = Object.fromEntries(
    Object.entries(endSystem.config).map(([key, value]) => [
      key,
      secrets.has(key) ? { value, sensitive: true } : value,
    ]),
  );
  describeConformance(() => ({
    target: oauth2Connector,
    config,
    invalidConfig: { ...config, tokenUrl: 'not a url' },
    // One refused login: the client's secret, wrong.
    wrongCredentials: {
      ...config,
      clientSecret: {
        value: `${endSystem.config.clientSecret}-not-it`,
        sensitive: true,
      },
    },
    // A later call that succeeds with a session.
    operation: { method: 'GET', path: '/me' },
    // The end system may live on this machine or a private network: the connector may reach its hosts.
    handlerOptions: { egress: { allow: endSystem.egressAllow } },
  }));
}
