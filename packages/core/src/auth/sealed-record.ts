import { z } from 'zod';
import type { Cache } from '../store/cache.js';
import { vaultOf, type SessionVault } from '../store/session-vault.js';

// Where a login keeps what it learned for a session (tokens, cookies): one entry of the session's cache, sealed
// by its vault (see `store/session-vault.ts`), so the store never holds a credential in the clear.

/** The cache, and its vault, a login keeps its record in. @internal */
export interface RecordPlace {
  readonly cache: Cache;
  readonly vault: SessionVault;
}

/**
 * The place of a context's session cache.
 *
 * @param cache - the context's `sessionCache`
 * @param kit - the login's name, for the error
 * @throws TypeError when the cache is not one the SDK gave a context
 * @internal
 */
export function recordPlace(cache: Cache, kit: string): RecordPlace {
  const vault = vaultOf(cache);
  if (vault === undefined)
    throw new TypeError(
      `${kit}: pass the context the SDK gave initialize, the operation or cleanup (its sessionCache keeps the session's credentials)`,
    );
  return { cache, vault };
}

/**
 * Reads a record, or `undefined` when there is none, it was not sealed here, or it has another shape.
 *
 * @internal
 */
export async function readSealed<T>(
  place: RecordPlace,
  key: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const sealed = await place.cache.get(key, z.string());
  if (sealed === undefined) return undefined;
  const text = place.vault.open(key, sealed);
  if (text === undefined) return undefined;
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data : undefined;
}

/** Writes a record, sealed. @internal */
export async function writeSealed(place: RecordPlace, key: string, record: unknown): Promise<void> {
  await place.cache.set(key, place.vault.seal(key, JSON.stringify(record)));
}
