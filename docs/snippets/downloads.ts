// A download with its own stall timeout (docs/end-system-client.md#downloads): the operation is a function of
// the platform's builders, which the connector spreads.
// #region stall-timeout
import type { PlatformBuilders } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
// #endregion stall-timeout
import { defineConnector, field, secret } from '@connector-sdk/core';

// #region stall-timeout
/** The session as the connector's initialize makes it. */
interface AcmeSession {
  readonly 'X-Acme-Url': string;
  readonly Authorization: string;
}

export const exportDownloads = (platform: PlatformBuilders<AcmeSession>) => ({
  attachmentContent: platform.attachmentContent(
    async ({ query, session, signal, log }) => {
      const acme = createEndSystemClient({
        baseUrl: session['X-Acme-Url'],
        headers: { Authorization: session.Authorization },
        signal, // the platform hanging up ends the download
        log,
        // this end system pauses up to a minute while it prepares an export
        stallTimeoutMs: 60_000,
      });
      const response = await acme.get(
        `exports/${encodeURIComponent(query.contentUri)}`,
      );
      // Taken as a stream: no total bound but the platform's request,
      // stallTimeoutMs between chunks.
      return response.body ?? new Uint8Array(0);
    },
  ),
});
// #endregion stall-timeout

export const exportsConnector = defineConnector({
  name: 'acme-exports',
  version: '1.0.0',
  config: { url: field.url(), apiToken: field.secret() },
  session: { 'X-Acme-Url': field.url(), Authorization: field.secret() },
  initialize: ({ config }) => ({
    'X-Acme-Url': config.url,
    Authorization: secret(`Bearer ${config.apiToken}`),
  }),
  operations: ({ platform }) => ({ ...exportDownloads(platform) }),
});
