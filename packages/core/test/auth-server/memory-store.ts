import type { Adapter, AdapterPayload } from 'oidc-provider';

/** Token kinds a test may expire on demand: the ones a client presents back to the server. */
const expirable = ['AccessToken', 'ClientCredentials', 'RefreshToken'] as const;

/**
 * One authorization server's storage: oidc-provider's adapter interface over plain maps, per server (the
 * library's own memory adapter shares one module-level store and warns on every start).
 *
 * It is also the test clock for tokens. oidc-provider takes no clock: it compares a stored token's `exp` with
 * `Date.now()` (its `helpers/epoch_time.js`), so moving `exp` into the past is how a test makes a token expire
 * now without sleeping and without faking the process's `Date` under the code being tested.
 */
export function createMemoryStore() {
  const records = new Map<string, AdapterPayload>();
  const byGrant = new Map<string, Set<string>>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  /** Every token ever issued, by kind, kept after it is revoked or rotated away. */
  const everIssued = new Map<string, Set<string>>();

  function adapterFor(model: string): Adapter {
    const key = (id: string) => `${model}:${id}`;
    return {
      async upsert(id, payload) {
        records.set(key(id), payload);
        if ((expirable as readonly string[]).includes(model))
          everIssued.set(model, (everIssued.get(model) ?? new Set()).add(id));
        if (payload.grantId !== undefined) {
          const members = byGrant.get(payload.grantId) ?? new Set<string>();
          members.add(key(id));
          byGrant.set(payload.grantId, members);
        }
        if (payload.uid !== undefined) byUid.set(payload.uid, id);
        if (payload.userCode !== undefined) byUserCode.set(payload.userCode, id);
      },
      async find(id) {
        return records.get(key(id));
      },
      async findByUid(uid) {
        const id = byUid.get(uid);
        return id === undefined ? undefined : records.get(key(id));
      },
      async findByUserCode(userCode) {
        const id = byUserCode.get(userCode);
        return id === undefined ? undefined : records.get(key(id));
      },
      async consume(id) {
        const payload = records.get(key(id));
        if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        records.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const member of byGrant.get(grantId) ?? []) records.delete(member);
        byGrant.delete(grantId);
      },
    };
  }

  return {
    adapterFor,
    /**
     * Makes an issued token expire now: its `exp` moves an hour into the past, beyond oidc-provider's clock
     * tolerance (15 s by default).
     * @returns whether a token with this value was stored.
     */
    expire(token: string) {
      for (const kind of expirable) {
        const payload = records.get(`${kind}:${token}`);
        if (payload) {
          payload.exp = Math.floor(Date.now() / 1000) - 3600;
          return true;
        }
      }
      return false;
    },
    /**
     * Makes every issued token of one kind expire now (see `expire`): for a test that does not know the token
     * a connector holds.
     * @returns how many tokens it expired.
     */
    expireAll(kind: (typeof expirable)[number]) {
      let expired = 0;
      for (const [key, payload] of records)
        if (key.startsWith(`${kind}:`)) {
          payload.exp = Math.floor(Date.now() / 1000) - 3600;
          expired++;
        }
      return expired;
    },
    /**
     * The value of every token of one kind ever issued (opaque tokens are their own ids), revoked and rotated
     * ones included: what a leak check looks for.
     */
    issued(kind: (typeof expirable)[number]): string[] {
      return [...(everIssued.get(kind) ?? [])];
    },
    /** Stored records of one kind, e.g. `RefreshToken`: lets a test see what the server holds. */
    count(kind: string) {
      return [...records.keys()].filter((key) => key.startsWith(`${kind}:`)).length;
    },
  };
}

/** The storage of one authorization server. */
export type MemoryStore = ReturnType<typeof createMemoryStore>;
