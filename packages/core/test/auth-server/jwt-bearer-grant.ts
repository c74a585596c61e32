import { jwtVerify, type CryptoKey } from 'jose';
import { errors, type Provider } from 'oidc-provider';
import { issueTokens } from './issue-tokens.js';
import { JWT_BEARER, testUser } from './test-clients.js';

/** Who may sign assertions for the JWT bearer grant, and with which public key. */
export interface TrustedAssertionIssuer {
  issuer: string;
  publicKey: CryptoKey;
}

/**
 * Registers the JWT bearer grant (RFC 7523 §2.1): the client, authenticated as usual, presents an assertion
 * signed by a trusted issuer whose `sub` is the end user. Checks follow RFC 7523 §3: `iss`, `sub`, `aud` (the
 * issuer or the token endpoint), `exp`, and a `jti` used once. Any failure is `invalid_grant` (§3.1).
 */
export function registerJwtBearerGrant(provider: Provider, trusted: TrustedAssertionIssuer) {
  provider.registerGrantType<{ assertion?: string }>(
    JWT_BEARER,
    async (ctx) => {
      const { assertion, scope } = ctx.oidc.params;
      if (assertion === undefined)
        throw new errors.InvalidRequest('missing required parameter assertion');
      const { payload } = await jwtVerify(assertion, trusted.publicKey, {
        issuer: trusted.issuer,
        audience: [provider.issuer, ctx.oidc.urlFor('token')],
        requiredClaims: ['sub', 'exp', 'jti'],
      }).catch((cause: unknown) => {
        throw new errors.InvalidGrant({ detail: 'invalid assertion', cause });
      });
      if (payload.sub !== testUser.sub) throw new errors.InvalidGrant('unknown assertion subject');
      const unique = await provider.ReplayDetection.unique(
        trusted.issuer,
        String(payload.jti),
        Number(payload.exp),
      );
      if (!unique) throw new errors.InvalidGrant('assertion already used');
      await issueTokens(ctx, { accountId: testUser.sub, gty: 'jwt-bearer', scope });
    },
    ['assertion', 'scope'],
  );
}
