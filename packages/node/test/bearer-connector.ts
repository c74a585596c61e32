import { defineConnector, field, secret } from '@connector-sdk/core';

/**
 * The connector the floods and the body tests serve: initialize makes a bearer session of the password,
 * `whoami` reads it back, and `hold` answers when the given handler does (at once unless a test holds it).
 */
export function bearerConnector(hold: () => Promise<unknown> = () => Promise.resolve({})) {
  return defineConnector({
    name: 'bearer',
    version: '1.0.0',
    config: { password: field.secret() },
    session: { Authorization: field.secret() },
    initialize: ({ config }) => ({ Authorization: secret(`Bearer ${config.password}`) }),
    operations: ({ get }) => ({
      whoami: get('/whoami', ({ session }) => ({ signedIn: session.Authorization.length > 7 })),
      hold: get('/hold', hold),
    }),
  });
}

/** The configuration the platform sends {@link bearerConnector}. */
export const bearerEntries = [{ key: 'password', value: 'flood-proof', sensitive: true }];
