import { blankSecretText } from './read-error-body.js';

/**
 * What an end system said about a failure.
 *
 * @example
 * ```ts
 * import {
 *   createEndSystemClient,
 *   type EndSystemErrorInfo,
 * } from '@connector-sdk/core/http';
 *
 * type AcmeError = { fault?: { id?: string; text?: string } };
 * const extract = (body: unknown): EndSystemErrorInfo => ({
 *   code: (body as AcmeError).fault?.id,
 *   message: (body as AcmeError).fault?.text,
 * });
 * const baseUrl = 'https://acme.example/api/';
 * createEndSystemClient({ baseUrl, errors: { extract } });
 * ```
 */
export interface EndSystemErrorInfo {
  /** The end system's own error code. */
  readonly code?: string | undefined;
  /** The end system's own message. */
  readonly message?: string | undefined;
}

/** Longest message taken from a plain-text body. */
const MAX_MESSAGE = 500;
/** How much of a plain-text body is looked at for it: enough for a secret that starts before the cut. */
const MAX_SCANNED = 8_192;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number' && Number.isFinite(value)
      ? String(value)
      : undefined;

function first(
  body: Record<string, unknown>,
  paths: readonly (readonly (string | number)[])[],
): string | undefined {
  for (const path of paths) {
    let current: unknown = body;
    for (const step of path) {
      if (typeof step === 'number') current = Array.isArray(current) ? current[step] : undefined;
      else current = isRecord(current) ? current[step] : undefined;
    }
    const found = text(current);
    if (found !== undefined) return found;
  }
  return undefined;
}

const CODE_PATHS = [
  ['code'],
  ['error', 'code'],
  ['errorCode'],
  ['error_code'],
  ['errors', 0, 'code'],
  ['errors', 'code'],
] as const;

/** What an error code looks like: a word, not a sentence (`invalid_grant`, `E1042`, `auth.expired`). */
const CODE_LIKE = /^[\w.:-]{1,100}$/;

const MESSAGE_PATHS = [
  ['message'],
  ['error', 'message'],
  ['errorMessage'],
  ['error_description'],
  ['errors', 0, 'message'],
  ['errors', 'message'],
  // CouchDB, PouchDB and Cloudant: `{ "error": "conflict", "reason": "Document update conflict." }`.
  ['reason'],
  ['detail'],
  ['title'],
] as const;

/**
 * Finds the end system's error code and message in the common body shapes: `code`, `error.code`, `errorCode`,
 * `error_code`, `errors[0].code`, OAuth's `error` (when it is a word; a sentence there is the message);
 * `message`, `error.message`, `errorMessage`, `error_description`, `errors[0].message`, CouchDB's `reason`,
 * RFC 9457's `detail`/`title`. A plain-text body is the message (with
 * credential-like values blanked); an HTML page is not.
 *
 * @param body - the parsed JSON body, or the body text when it is not JSON
 * @param clip - shortens a plain-text body to the message's 500 characters; the end-system client passes one
 *   that redacts the request's secrets first, so a secret across the cut is not half shown
 * @returns what was found
 * @example
 * ```ts
 * import { extractErrorInfo } from '@connector-sdk/core/http';
 * extractErrorInfo({
 *   error: 'invalid_grant',
 *   error_description: 'Bad credentials',
 * }); // { code: 'invalid_grant', message: 'Bad credentials' }
 * ```
 */
export function extractErrorInfo(
  body: unknown,
  clip: (text: string, max: number) => string = (value, max) => value.slice(0, max),
): EndSystemErrorInfo {
  if (typeof body === 'string') {
    // An HTML page (a proxy's, a login form) says nothing a user can act on.
    if (/^\s*</.test(body)) return {};
    return { message: text(clip(blankSecretText(body.slice(0, MAX_SCANNED)), MAX_MESSAGE)) };
  }
  if (!isRecord(body)) return {};
  // OAuth's `error` is a code (`invalid_grant`); many APIs put a sentence there instead, which is a message.
  const error = text(body.error);
  const errorIsCode = error !== undefined && CODE_LIKE.test(error);
  return {
    code: first(body, CODE_PATHS) ?? (errorIsCode ? error : undefined),
    message: first(body, MESSAGE_PATHS) ?? (errorIsCode ? undefined : error),
  };
}
