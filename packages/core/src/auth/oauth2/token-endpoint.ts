import { z } from 'zod';
import type { ConnectorError } from '../../errors/connector-error.js';
import type { ErrorCode } from '../../errors/error-codes.js';
import { EndSystemError, UnauthenticatedError, ValidationError } from '../../errors/errors.js';
import { createEndSystemClient } from '../../http/create-end-system-client.js';
import type { ErrorRule } from '../../http/errors/map-end-system-error.js';
import { signAssertion } from './client-assertion.js';
import {
  endpointTarget,
  type OAuth2Client,
  type TokenEndpointOptions,
  type TokenRequestContext,
  type TokenSet,
} from './oauth2-options.js';

// Requests to the token and revocation endpoints, through the end-system client (so the egress policy, TLS,
// timeouts, log lines and error mapping are the ones every end-system call has), and how their refusals reach
// the platform (RFC 6749 §5.2): at login, a refused client or grant is the user's to fix (401
// `AUTHENTICATION_FAILED`, with what to check); on a refresh, the same refusal means the session can no longer
// be renewed (401 `SESSION_EXPIRED`: the platform initializes again). An answer that is no token (a login page,
// an error in a 200) is the end system's fault (502), as a timeout (504) or a 503 (the wait passed on) are.

/** Whether a token request logs in (initialize) or renews a session (a later call). @internal */
export type TokenPhase = 'login' | 'refresh';

/** Where and how a token request is sent. @internal */
export interface TokenEndpoint {
  readonly url: string;
  readonly client: OAuth2Client;
  readonly format: 'form' | 'json';
  readonly options: TokenEndpointOptions | undefined;
  /** Headers sent instead of the client's authentication (a revocation made with the access token). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/** The platform request a token request is made for. @internal */
export type TokenCaller = TokenRequestContext;

const TokenSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().min(1).optional(),
  expires_in: z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  refresh_token: z.string().min(1).optional(),
  scope: z.string().optional(),
});

const ErrorSchema = z.object({ error: z.string(), error_description: z.string().optional() });

/** What each RFC 6749 §5.2 error means in each phase: the code answered and what the user can do. */
const REFUSALS: Readonly<Record<TokenPhase, Readonly<Record<string, [ErrorCode, string]>>>> = {
  login: {
    invalid_client: [
      'AUTHENTICATION_FAILED',
      'The authorization server refused the client: check the client id and its secret or key',
    ],
    invalid_grant: [
      'AUTHENTICATION_FAILED',
      'The authorization server refused the credentials: check the user name and password, or the assertion or refresh token, and that they have not expired',
    ],
    unauthorized_client: [
      'AUTHENTICATION_FAILED',
      'The authorization server does not let this client use this kind of login: check the client',
    ],
    invalid_scope: [
      'INVALID_CONFIGURATION',
      'The authorization server refused the scope asked for: check the scope',
    ],
    unsupported_grant_type: [
      'INVALID_CONFIGURATION',
      'The authorization server does not offer this kind of login: check the token URL',
    ],
    invalid_request: [
      'INVALID_CONFIGURATION',
      'The authorization server refused the token request: check the client and that it may use this kind of login',
    ],
  },
  refresh: {
    invalid_grant: [
      'SESSION_EXPIRED',
      'The authorization server no longer renews this session (its refresh token expired or was revoked): initialize again',
    ],
    invalid_client: [
      'SESSION_EXPIRED',
      'The authorization server no longer accepts the client this session logged in with: initialize again',
    ],
    unauthorized_client: [
      'SESSION_EXPIRED',
      'The authorization server no longer lets this client renew the session: initialize again',
    ],
  },
};

function refusal(phase: TokenPhase, error: string): [ErrorCode, string] | undefined {
  return Object.hasOwn(REFUSALS[phase], error) ? REFUSALS[phase][error] : undefined;
}

/** The refusal table as the end-system client's error rules, then any other 400/401 of the token endpoint. */
function rulesOf(phase: TokenPhase): readonly ErrorRule[] {
  const rules: ErrorRule[] = Object.entries(REFUSALS[phase]).map(([error, [code, message]]) => ({
    body: { error },
    code,
    message,
  }));
  // A bare 403 is left to the default table: a firewall or a rate limiter in front of the server says it, and
  // a session must not end for it.
  rules.push({
    status: [400, 401],
    code: phase === 'login' ? 'AUTHENTICATION_FAILED' : 'SESSION_EXPIRED',
    message:
      phase === 'login'
        ? 'The authorization server refused the login'
        : 'The authorization server refused to renew the session: initialize again',
  });
  return rules;
}

/** The error a token answer of 2xx that reports an error stands for. */
function errorIn200(phase: TokenPhase, body: unknown): ConnectorError | undefined {
  const parsed = ErrorSchema.safeParse(body);
  if (!parsed.success) return undefined;
  const [code, message] = refusal(phase, parsed.data.error) ?? [
    'END_SYSTEM_ERROR',
    'The authorization server answered an error where a token was expected',
  ];
  const options = {
    detail: `The token endpoint answered 2xx with error ${parsed.data.error.slice(0, 64)}`,
  };
  if (code === 'INVALID_CONFIGURATION')
    return new ValidationError(message, { ...options, code: 'INVALID_CONFIGURATION' });
  if (code === 'END_SYSTEM_ERROR') return new EndSystemError(message, options);
  return new UnauthenticatedError(message, {
    ...options,
    code: code as 'AUTHENTICATION_FAILED' | 'SESSION_EXPIRED',
  });
}

/** RFC 6749 §2.3.1: the id and secret form-encoded, then joined for HTTP Basic. */
function basicCredentials(id: string, secret: string): string {
  const encode = (text: string) => new URLSearchParams({ _: text }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

function authMethodOf(client: OAuth2Client): NonNullable<OAuth2Client['authMethod']> {
  if (client.authMethod !== undefined) return client.authMethod;
  if (client.privateKey !== undefined) return 'private_key_jwt';
  return client.secret === undefined ? 'none' : 'client_secret_basic';
}

/** Adds the client's authentication to a request's parameters and headers (RFC 6749 §2.3, RFC 7523 §2.2). */
async function authenticate(
  endpoint: TokenEndpoint,
  params: Record<string, string>,
  context: { readonly caller: TokenCaller; readonly now: number },
): Promise<Record<string, string>> {
  const { caller, now } = context;
  if (endpoint.headers !== undefined) return { ...endpoint.headers };
  const { client } = endpoint;
  const method = authMethodOf(client);
  if (method === 'none') {
    params.client_id = client.id;
    return {};
  }
  if (method === 'private_key_jwt') {
    if (client.privateKey === undefined)
      throw new TypeError('oauth2: private_key_jwt needs the client’s privateKey');
    const assertion = await signAssertion(
      {
        issuer: client.id,
        subject: client.id,
        audience: endpoint.url,
        privateKey: client.privateKey,
        keyId: client.keyId,
        algorithm: client.algorithm,
      },
      now,
    );
    caller.addSecret(assertion);
    params.client_id = client.id;
    params.client_assertion_type = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
    params.client_assertion = assertion;
    return {};
  }
  if (client.secret === undefined)
    throw new TypeError(`oauth2: ${method} needs the client’s secret`);
  caller.addSecret(client.secret);
  if (method === 'client_secret_post') {
    params.client_id = client.id;
    params.client_secret = client.secret;
    return {};
  }
  return { authorization: basicCredentials(client.id, client.secret) };
}

/**
 * Posts a request to an OAuth2 endpoint, the client authenticated, every secret parameter registered first.
 *
 * @returns the answer's JSON body, or `undefined` for an empty one
 * @internal
 */
export async function postToEndpoint(
  endpoint: TokenEndpoint,
  params: Readonly<Record<string, string>>,
  context: { readonly caller: TokenCaller; readonly phase: TokenPhase; readonly now: number },
): Promise<unknown> {
  const { caller, phase } = context;
  // The client's own parameters first (`client_id`…), then the request's.
  const clientParams: Record<string, string> = {};
  const headers = await authenticate(endpoint, clientParams, context);
  for (const name of ['password', 'refresh_token', 'assertion', 'token'])
    if (params[name] !== undefined) caller.addSecret(params[name]);
  const body = { ...clientParams, ...params };
  const { baseUrl, path } = endpointTarget(endpoint.url);
  const { rules, ...transport } = endpoint.options ?? {};
  const client = createEndSystemClient({
    ...transport,
    baseUrl,
    headers,
    ...(caller.signal && { signal: caller.signal }),
    ...(caller.log && { log: caller.log }),
    errors: { rules: [...(rules ?? []), ...rulesOf(phase)] },
  });
  const response = await client.post(
    path,
    endpoint.format === 'json' ? { json: body } : { body: new URLSearchParams(body) },
  );
  const text = await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EndSystemError('The authorization server answered something that is not JSON');
  }
}

/**
 * Asks the token endpoint for tokens and checks the answer; every token in it is registered as a secret before
 * anything else reads it.
 *
 * @internal
 */
export async function requestTokens(
  endpoint: TokenEndpoint,
  params: Record<string, string>,
  context: { readonly caller: TokenCaller; readonly phase: TokenPhase; readonly now: number },
): Promise<TokenSet> {
  const body = await postToEndpoint(endpoint, params, context);
  if (typeof body === 'object' && body !== null) {
    for (const name of ['access_token', 'refresh_token', 'id_token']) {
      const value = (body as Record<string, unknown>)[name];
      if (typeof value === 'string' && value !== '') context.caller.addSecret(value);
    }
  }
  const parsed = TokenSchema.safeParse(body);
  if (!parsed.success) {
    throw (
      errorIn200(context.phase, body) ??
      new EndSystemError('The authorization server answered without an access token')
    );
  }
  const token = parsed.data;
  return {
    accessToken: token.access_token,
    tokenType: token.token_type ?? 'Bearer',
    expiresInSeconds: token.expires_in,
    refreshToken: token.refresh_token,
    scope: token.scope,
  };
}
