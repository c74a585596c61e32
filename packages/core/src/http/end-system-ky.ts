import kyExport, { type KyInstance } from 'ky';
import { mapHttpError } from './errors/map-http-error.js';
import { parseJson } from './errors/not-json.js';
import { policedFetch } from './transport/policed-fetch.js';
import { prepareRequest } from './request-hooks.js';
import { shouldRetry, WAIT_STATUSES } from './errors/retry-rules.js';

/**
 * ky is ESM only. The CommonJS build `require`s it, and a bundler's interop may hand back its module namespace
 * where the default export is expected (`ky.create` was undefined for `require('@connector-sdk/core/http')`
 * once; ARCHITECTURE.md, D17).
 */
const ky: KyInstance =
  (kyExport as unknown as { readonly default?: KyInstance }).default ?? kyExport;

/** The methods retried unless a client's `retry.unsafeMethods` adds POST and PATCH. @internal */
export const IDEMPOTENT: readonly string[] = Object.freeze([
  'get',
  'head',
  'options',
  'put',
  'delete',
]);

/** The longest wait before a retry, `Retry-After` included, unless a client's `retry.maxDelayMs` says. @internal */
export const DEFAULT_MAX_DELAY_MS = 5_000;

/** What a client without `retry` options retries, and how often. @internal */
export const DEFAULT_RETRY = Object.freeze({
  limit: 2,
  methods: IDEMPOTENT,
  statusCodes: Object.freeze([429, 503]),
  maxRetryAfter: DEFAULT_MAX_DELAY_MS,
  backoffLimit: DEFAULT_MAX_DELAY_MS,
});

/**
 * The ky instance every end-system client extends: the SDK's hooks, `fetch`, `parseJson`, headers and retry
 * rules, made once. Each client adds its base URL, its state in `context`, and the headers and retry limits it
 * changes; the hooks read the state from there. ky's own `timeout` is off: the client's `timeoutMs` and
 * `deadlineMs` bound each attempt in its `fetch`, body included.
 *
 * @internal
 */
export const endSystemKy: KyInstance = ky.create({
  timeout: false,
  fetch: policedFetch,
  parseJson,
  context: {},
  headers: { accept: 'application/json', 'user-agent': 'connector-sdk' },
  retry: {
    ...DEFAULT_RETRY,
    methods: [...DEFAULT_RETRY.methods],
    statusCodes: [...DEFAULT_RETRY.statusCodes],
    delay: (attempt) => 200 * 2 ** (attempt - 1),
    jitter: true,
    afterStatusCodes: WAIT_STATUSES,
    shouldRetry,
  },
  hooks: { beforeRequest: [prepareRequest], beforeError: [mapHttpError] },
});
