import kyExport, { type KyInstance } from 'ky';
import { mapHttpError } from './map-http-error.js';
import { parseJson } from './not-json.js';
import { policedFetch } from './policed-fetch.js';
import { prepareRequest } from './request-hooks.js';
import { shouldRetry, WAIT_STATUSES } from './retry-rules.js';

/**
 * ky is ESM only. The CommonJS build `require`s it, and a bundler's interop may hand back its module namespace
 * where the default export is expected (`ky.create` was undefined for `require('@connector-sdk/core/http')`
 * once, issue 20).
 */
const ky: KyInstance =
  (kyExport as unknown as { readonly default?: KyInstance }).default ?? kyExport;

/**
 * The ky instance every end-system client extends: the SDK's hooks, `fetch`, `parseJson` and retry rules, made
 * once. Each client adds its base URL, headers, retry limits and its state in `context`; the hooks read the
 * state from there. ky's own `timeout` is off: the client's `timeoutMs` and `deadlineMs` bound each attempt in
 * its `fetch`, body included.
 *
 * @internal
 */
export const endSystemKy: KyInstance = ky.create({
  timeout: false,
  fetch: policedFetch,
  parseJson,
  context: {},
  retry: {
    delay: (attempt) => 200 * 2 ** (attempt - 1),
    jitter: true,
    afterStatusCodes: WAIT_STATUSES,
    shouldRetry,
  },
  hooks: { beforeRequest: [prepareRequest], beforeError: [mapHttpError] },
});
