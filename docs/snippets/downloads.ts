// A download with its own stall timeout (docs/end-system-client.md#downloads).
import { defineConnector, field, secret } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';

export const exportsConnector = defineConnector({
  name: 'acme-exports',
  version: '1.0.0',
  config: { url: field.url(), apiToken: field.secret() },
  session: { 'X-Acme-Url': field.url(), Authorization: field.secret() },
  initialize: ({ config }) => ({
    'X-Acme-Url': config.url,
    Authorization: secret(`Bearer ${config.apiToken}`),
  }),
  operations: ({ platform }) => ({
    // #region stall-timeout
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
    // #endregion stall-timeout
  }),
});
