import { errors, type Provider } from 'oidc-provider';
import { issueTokens } from './issue-tokens.js';
import { testUser } from './test-clients.js';

interface PasswordParams {
  username?: string;
  password?: string;
}

/**
 * Registers the resource owner password grant (RFC 6749 §4.3), which oidc-provider does not ship, for the one
 * test user. Wrong credentials are `invalid_grant` (RFC 6749 §5.2), answered by oidc-provider's own error
 * handler like its built-in grants.
 */
export function registerPasswordGrant(provider: Provider) {
  provider.registerGrantType<PasswordParams>(
    'password',
    async (ctx) => {
      const { username, password, scope } = ctx.oidc.params;
      if (username === undefined || password === undefined) {
        throw new errors.InvalidRequest('username and password are required');
      }
      if (username !== testUser.username || password !== testUser.password) {
        throw new errors.InvalidGrant('invalid resource owner credentials');
      }
      await issueTokens(ctx, { accountId: testUser.sub, gty: 'password', scope });
    },
    ['username', 'password', 'scope'],
  );
}
