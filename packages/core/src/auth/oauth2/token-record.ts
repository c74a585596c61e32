import { z } from 'zod';
import { UnauthenticatedError } from '../../errors/errors.js';
import { readSealed, writeSealed, type RecordPlace } from '../sealed-record.js';
import type { OAuth2Client, TokenSet } from './oauth2-options.js';
import type { TokenEndpoint } from './token-endpoint.js';

// What an OAuth2 login keeps for its session: the tokens and what renewing them needs (the endpoint and the
// client), sealed in the session's cache (see `store/session-vault.ts`), never in the session the platform
// replays, which cannot change between initializes while a rotated refresh token must. The user's password and
// a grant's signing key are never kept: a login without a refresh token ends with its access token.

/** Where the record sits in the session's cache. @internal */
export const RECORD_KEY = 'connector-sdk:oauth2';

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
    readonly scope?: string;
  },
): TokenRecord {
  const client: OAuth2Client = endpoint.client;
  return {
    tokenUrl: endpoint.url,
    ...(endpoint.revocationUrl === undefined ? {} : { revocationUrl: endpoint.revocationUrl }),
    format: endpoint.format,
    client: JSON.parse(JSON.stringify(client)) as TokenRecord['client'],
    ...(extra.scope === undefined ? {} : { scope: extra.scope }),
    repeatable: extra.repeatable,
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
export const readRecord = (place: RecordPlace): Promise<TokenRecord | undefined> =>
  readSealed(place, RECORD_KEY, RecordSchema);

/** The session's record; a session without one must initialize again. @internal */
export async function requireRecord(place: RecordPlace): Promise<TokenRecord> {
  const record = await readRecord(place);
  if (record === undefined)
    throw new UnauthenticatedError(
      'This session holds no OAuth2 tokens (it was cleaned up, or the store forgot them): initialize again',
    );
  return record;
}

/** Writes the session's record, sealed. @internal */
export const writeRecord = (place: RecordPlace, record: TokenRecord): Promise<void> =>
  writeSealed(place, RECORD_KEY, record);

/** The `Authorization` value of a record. @internal */
export function authorizationOf(record: TokenRecord): string {
  const type = /^bearer$/i.test(record.tokenType) ? 'Bearer' : record.tokenType;
  return `${type} ${record.accessToken}`;
}
