import { z } from 'zod';
import { UnauthenticatedError } from '../../errors/errors.js';
import type { Cache } from '../../store/cache.js';
import { readSealed, recordPlace, writeSealed, type RecordPlace } from '../sealed-record.js';
import type { TokenSet } from './oauth2-options.js';
import type { TokenEndpoint } from './token-endpoint.js';

// What an OAuth2 login keeps for its session: the tokens and what renewing them needs (the endpoint and the
// client), sealed in the session's cache (see `store/session-vault.ts`), never in the session the platform
// replays, which cannot change between initializes while a rotated refresh token must. The client's secret or
// private key is kept (every refresh authenticates the client); the user's password and a JWT bearer grant's
// signing key are never kept: a login without a refresh token ends with its access token.

/** Where one login's record, and its refresh lock, sit in the session's cache. @internal */
export interface LoginPlace extends RecordPlace {
  readonly key: string;
  readonly lockKey: string;
}

/**
 * The place of a login named `name` in a context's session cache: one entry per login, so two logins of one
 * connector keep apart.
 *
 * @internal
 */
export function loginPlace(cache: Cache, name: string): LoginPlace {
  return {
    ...recordPlace(cache, 'oauth2'),
    key: `connector-sdk:oauth2:${name}`,
    lockKey: `connector-sdk:oauth2:${name}:lock`,
  };
}

const ClientSchema = z.object({
  id: z.string(),
  secret: z.string().optional(),
  privateKey: z.union([z.string(), z.looseObject({ kty: z.string() })]).optional(),
  keyId: z.string().optional(),
  algorithm: z.string().optional(),
  authMethod: z
    .enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'none'])
    .optional(),
});

const RecordSchema = z.object({
  tokenUrl: z.string(),
  revocationUrl: z.string().optional(),
  format: z.enum(['form', 'json']),
  client: ClientSchema,
  scope: z.string().optional(),
  /** Whether the grant can be run again without the user (client credentials). */
  repeatable: z.boolean(),
  /**
   * The session that logged in. A login shared by concurrent initializes (`singleFlightInitialize`) is copied
   * to every session it serves; only its owner renews and revokes it, since a rotated refresh token used by
   * two sessions ends both.
   */
  owner: z.string(),
  accessToken: z.string(),
  tokenType: z.string(),
  /** Epoch milliseconds by this connector's clock, from the request's start and `expires_in`. */
  expiresAt: z.number().optional(),
  /** When later calls renew the token first (see {@link expiryOf}). */
  renewAt: z.number().optional(),
  refreshToken: z.string().optional(),
});

/** One session's OAuth2 state. @internal */
export type TokenRecord = z.infer<typeof RecordSchema>;

/**
 * When a token expires and when it is renewed ahead of that: `margin` before expiry, but never before half its
 * lifetime has passed, so a server's short-lived tokens (a minute, with the default minute's margin) are not
 * renewed on every call.
 *
 * @internal
 */
export function expiryOf(
  requestedAt: number,
  expiresInSeconds: number | undefined,
  margin: number,
): { expiresAt?: number; renewAt?: number } {
  if (expiresInSeconds === undefined) return {};
  const lifetime = expiresInSeconds * 1000;
  return {
    expiresAt: requestedAt + lifetime,
    renewAt: requestedAt + Math.max(lifetime - margin, lifetime / 2),
  };
}

/** The record of a token answer. @internal */
export function recordOf(
  endpoint: TokenEndpoint & { readonly revocationUrl: string | undefined },
  answer: TokenSet,
  extra: {
    readonly requestedAt: number;
    readonly margin: number;
    readonly repeatable: boolean;
    readonly owner: string;
    readonly scope?: string;
  },
): TokenRecord {
  return {
    tokenUrl: endpoint.url,
    ...(endpoint.revocationUrl === undefined ? {} : { revocationUrl: endpoint.revocationUrl }),
    format: endpoint.format,
    // Kept as given: the record goes through JSON when it is sealed, which drops members left undefined.
    client: endpoint.client as TokenRecord['client'],
    ...(extra.scope === undefined ? {} : { scope: extra.scope }),
    repeatable: extra.repeatable,
    owner: extra.owner,
    accessToken: answer.accessToken,
    tokenType: answer.tokenType,
    ...expiryOf(extra.requestedAt, answer.expiresInSeconds, extra.margin),
    ...(answer.refreshToken === undefined ? {} : { refreshToken: answer.refreshToken }),
  };
}

/**
 * Reads the session's record, or `undefined` when it has none (never logged in, or the store forgot it).
 *
 * @internal
 */
export const readRecord = (place: LoginPlace): Promise<TokenRecord | undefined> =>
  readSealed(place, place.key, RecordSchema);

/** The session's record; a session without one must initialize again. @internal */
export async function requireRecord(place: LoginPlace): Promise<TokenRecord> {
  const record = await readRecord(place);
  if (record === undefined)
    throw new UnauthenticatedError(
      'This session holds no OAuth2 tokens (it was cleaned up, or the store forgot them): initialize again',
    );
  return record;
}

/** Writes the session's record, sealed. @internal */
export const writeRecord = (place: LoginPlace, record: TokenRecord): Promise<void> =>
  writeSealed(place, place.key, record);

/** The `Authorization` value of a record. @internal */
export function authorizationOf(record: TokenRecord): string {
  const type = /^bearer$/i.test(record.tokenType) ? 'Bearer' : record.tokenType;
  return `${type} ${record.accessToken}`;
}
