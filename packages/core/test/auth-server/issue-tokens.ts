import { errors, type TokenEndpointGrantContext } from 'oidc-provider';

/** Scopes the custom grants may grant; anything else is `invalid_scope`. */
export const grantableScopes = ['api', 'offline_access'];

/**
 * Issues an access token, and a refresh token when the client may use `refresh_token`, for one end user,
 * through oidc-provider's public models only (its internal grant helpers are not part of its semver).
 * A `Grant` is saved first because the built-in `refresh_token` grant and introspection both look the grant
 * up and refuse tokens whose grant is gone.
 */
export async function issueTokens(
  ctx: TokenEndpointGrantContext,
  {
    accountId,
    gty,
    scope: requested,
  }: { accountId: string; gty: string; scope?: string | undefined },
) {
  const { provider, client } = ctx.oidc;
  const scopes = (requested ?? 'api').split(' ').filter(Boolean);
  const unknown = scopes.filter((scope) => !grantableScopes.includes(scope));
  if (unknown.length > 0)
    throw new errors.InvalidScope('requested scope is not allowed', unknown.join(' '));
  const scope = scopes.join(' ');

  const grant = new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope(scope);
  const grantId = await grant.save();

  const accessToken = new provider.AccessToken({ accountId, client, grantId, gty, scope });
  const body: Record<string, string | number> = {
    access_token: await accessToken.save(),
    token_type: accessToken.tokenType,
    expires_in: accessToken.expiration,
    scope,
  };
  if (client.grantTypeAllowed('refresh_token')) {
    const refreshToken = new provider.RefreshToken({ accountId, client, grantId, gty, scope });
    body.refresh_token = await refreshToken.save();
  }
  ctx.body = body;
}
