// The code of the "Going to production" guide (docs/deploying.md): a connector that reaches its end system as
// the deployment says (a private CA, an outbound proxy), its production entry point, and a connector served
// under a prefix. Each is a function, so that importing this file starts nothing; going-to-production.test.ts
// runs them over real HTTP.
// Each block of the guide carries its imports (a part of its region here), so that the blocks pasted one
// after another, reach, connector, entry and mounted, make a file that compiles.
// #region reach
import { readFileSync } from 'node:fs';
import type { EndSystemClientOptions } from '@connector-sdk/core/http';
// #endregion reach
// #region connector
import { defineConnector, field, secret } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
// #endregion connector
// #region entry
import { serve } from '@connector-sdk/node';
import { pino } from 'pino';
// #endregion entry
import type { ConnectorServer } from '@connector-sdk/node';

// #region reach
/**
 * How this deployment reaches its end systems: read once, when the process
 * starts.
 */
export function endSystemReach(env: NodeJS.ProcessEnv = process.env) {
  return {
    // A private CA of on-premises end systems, trusted besides Node's default
    // roots (PEM, mounted as a file).
    tls: env.END_SYSTEM_CA_FILE
      ? { ca: readFileSync(env.END_SYSTEM_CA_FILE, 'utf8') }
      : undefined,
    // The company's outbound proxy, credentials included:
    // http://user:password@proxy.internal:3128
    proxy: env.END_SYSTEM_PROXY || undefined,
  } satisfies Partial<EndSystemClientOptions>;
}
// #endregion reach

// #region connector
export function acmeConnector(reach = endSystemReach()) {
  return defineConnector({
    name: 'acme-tracker',
    version: '1.0.0',
    config: { url: field.url(), apiToken: field.secret() },
    session: { 'X-Acme-Url': field.url(), Authorization: field.secret() },
    initialize: ({ config }) => ({
      'X-Acme-Url': config.url,
      Authorization: secret(`Bearer ${config.apiToken}`),
    }),
    operations: ({ get }) => ({
      getIssue: get('/issues/:id', ({ session, params, signal, log }) =>
        createEndSystemClient({
          baseUrl: session['X-Acme-Url'],
          headers: { Authorization: session.Authorization },
          signal,
          log,
          // tls and proxy, the same objects for every client: one connection
          // pool
          ...reach,
        })
          .get(`rest/issues/${encodeURIComponent(params.id)}`)
          .json(),
      ),
    }),
  });
}
// #endregion connector

/** The production entry point, `src/main.ts`: a function here so that the guide's test can start and stop it. */
export async function main(): Promise<ConnectorServer> {
  // #region entry
  const logger = pino({ level: process.env.LOG_LEVEL ?? 'info' });
  const host = process.env.HOST ?? '127.0.0.1';
  const port = Number(process.env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    logger.fatal(
      { PORT: process.env.PORT },
      'PORT must be a port number (0 to 65535)',
    );
    process.exit(1);
  }

  const running = await serve(acmeConnector(), {
    host,
    port,
    logger,
    // Behind a load balancer: longer than its idle timeout (60 s on AWS ALB),
    // so that it, not Node, closes idle connections. Leave it out (5 s) when
    // the platform calls the connector directly.
    keepAliveTimeoutMs: 65_000,
  }).catch((error: unknown) => {
    logger.fatal({ err: error, host, port }, 'could not listen');
    process.exit(1);
  });
  logger.info({ url: `${running.url}/sdk/api/1.0` }, 'connector listening');

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      logger.info({ signal }, 'stopping');
      void running.close().then(() => process.exit(0));
    });
  }
  // #endregion entry
  return running;
}

/** A connector behind a reverse proxy that passes the path on unchanged. */
export async function serveMounted(
  host = '0.0.0.0',
  port = 3000,
): Promise<ConnectorServer> {
  // #region mounted
  // The proxy passes /acme/sdk/api/1.0/… on as it is: the prefix is the part
  // before /1.0 of the path the connector receives, so that is what it is told.
  const mounted = await serve(acmeConnector(), {
    host,
    port,
    prefix: '/acme/sdk/api',
  });
  // #endregion mounted
  return mounted;
}
