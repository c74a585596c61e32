import type { PendingCache } from '../../store/cache.js';

/** What one shared login produced, and for which session id it ran. */
export interface SharedLogin {
  readonly result: unknown;
  readonly sdkSessionId: string;
  /** What initialize wrote to its session cache, made in each session's cache once it is answered. */
  readonly sessionWrites: PendingCache;
}
