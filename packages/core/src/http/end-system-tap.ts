// A seam for test kits that record end systems (ARCHITECTURE.md, D23): one function that sees every attempt of
// every end-system client in the process, with the request's secrets, and may send it or answer it itself. The
// kit's recorder writes cassettes through it and its replayer answers from them. A registry symbol on
// globalThis, so the ESM and CJS copies of core share one tap; with none set, an attempt pays one lookup. Since
// any code in the process can set that symbol, a tap is honoured only outside NODE_ENV=production: it sees every
// request's secrets and may forge answers, so it must never be live in production by accident.

/**
 * The secrets of the platform request an attempt belongs to, as its redactor knows them.
 *
 * @example
 * ```ts
 * import { tapEndSystem } from '@connector-sdk/core/http';
 * tapEndSystem(async ({ secrets, send }) => {
 *   const known = secrets.values(); // scrub these from what you keep
 *   return send();
 * });
 * ```
 */
export interface EndSystemSecrets {
  /**
   * Every secret registered so far: sensitive configuration, secret session values, what connector code added
   * with `addSecret`, and the credentials the client sent. Later ones keep being added until the request ends.
   */
  values(): readonly string[];
  /** Registers a secret for the rest of the platform request (as `addSecret` does). */
  add(value: string): void;
}

/**
 * One attempt of an end-system call, as a tap receives it.
 *
 * @example
 * ```ts
 * import { tapEndSystem, type EndSystemAttempt } from '@connector-sdk/core/http';
 * tapEndSystem(async (attempt: EndSystemAttempt) => {
 *   const body = await attempt.request.clone().text();
 *   return attempt.send();
 * });
 * ```
 */
export interface EndSystemAttempt {
  /** The request about to be sent; `request.clone()` to read its body, since sending consumes it. */
  readonly request: Request;
  /** The platform request's secrets; empty for a client made without the request's `log`. */
  readonly secrets: EndSystemSecrets;
  /** Sends the request as the client would have (egress policy, timeouts, logging), once. */
  send(): Promise<Response>;
}

/**
 * Sees each attempt of every end-system client: returns `attempt.send()` (after reading what it needs), or a
 * `Response` of its own instead of sending anything.
 *
 * @example
 * ```ts
 * import type { EndSystemTap } from '@connector-sdk/core/http';
 * const offline: EndSystemTap = () => Promise.resolve(Response.json({ id: '1' }));
 * ```
 */
export type EndSystemTap = (attempt: EndSystemAttempt) => Promise<Response>;

const TAP = Symbol.for('@connector-sdk/end-system-tap');
const registry = globalThis as { [TAP]?: EndSystemTap | undefined };

/** The tap set now, if any, honoured or not (see {@link tapsHonoured}). @internal */
export function currentTap(): EndSystemTap | undefined {
  return registry[TAP];
}

/** Whether a tap may see attempts: never when NODE_ENV is `production`. @internal */
export function tapsHonoured(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process
    ?.env;
  return env?.NODE_ENV !== 'production';
}

/**
 * Puts a tap on every end-system client in this process: the test kit's recorder and replayer of end systems
 * (`useCassette` of `@connector-sdk/testing`) are built on it, and so can others be. One tap at a time; it
 * sees the request's secrets, so only test code should set one: when `NODE_ENV` is `production` no tap is
 * honoured (this throws, and a tap set on the registry symbol by other means is ignored, with one warning).
 *
 * @param tap - what each attempt goes through
 * @returns a function that removes the tap
 * @throws TypeError when `NODE_ENV` is `production`
 * @throws Error when another tap is already set
 * @example
 * ```ts
 * import { tapEndSystem } from '@connector-sdk/core/http';
 *
 * const seen: string[] = [];
 * const untap = tapEndSystem(async (attempt) => {
 *   const { method, url } = attempt.request;
 *   seen.push(`${method} ${new URL(url).pathname}`);
 *   return attempt.send();
 * });
 * try {
 *   // … run the connector …
 * } finally {
 *   untap();
 * }
 * ```
 */
export function tapEndSystem(tap: EndSystemTap): () => void {
  if (!tapsHonoured())
    throw new TypeError(
      "An end-system tap cannot be set while NODE_ENV is 'production': it would see every request's secrets",
    );
  if (registry[TAP] !== undefined)
    throw new Error('An end-system tap is set already: remove it before setting another');
  registry[TAP] = tap;
  return () => {
    if (registry[TAP] === tap) registry[TAP] = undefined;
  };
}
