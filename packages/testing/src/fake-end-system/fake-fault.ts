/**
 * A misbehaviour the fake end system can be told to show, in place of (or before) its normal answer.
 *
 * - `status`: answer this status with this JSON body and headers.
 * - `rate-limit`: 429 with `Retry-After` in seconds, or as an HTTP date.
 * - `server-error`: a 5xx with a JSON error body.
 * - `slow`: wait `delayMs`, then answer normally.
 * - `malformed-json`: 200 with `content-type: application/json` and a body that is not JSON.
 * - `wrong-content-type`: 200 with an HTML page.
 * - `auth-failure-in-body`: 200 whose JSON body says the session expired, as some end systems do.
 * - `reset`: destroy the connection without answering.
 */
export type FakeFault =
  | {
      readonly kind: 'status';
      readonly status: number;
      readonly body?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
    }
  | { readonly kind: 'rate-limit'; readonly retryAfterSeconds: number }
  | { readonly kind: 'rate-limit'; readonly retryAfterDate: Date }
  | { readonly kind: 'server-error'; readonly status?: number }
  | { readonly kind: 'slow'; readonly delayMs: number }
  | { readonly kind: 'malformed-json' }
  | { readonly kind: 'wrong-content-type' }
  | { readonly kind: 'auth-failure-in-body' }
  | { readonly kind: 'reset' };

/** Which requests a fault applies to, and how many times. */
export interface FaultMatch {
  /** Only requests with this method. @default any */
  readonly method?: string;
  /** Only this path (exact) or paths this expression matches. @default any */
  readonly path?: string | RegExp;
  /** How many matching requests get the fault before it is used up, at least 1. @default 1 */
  readonly times?: number;
}

/** A fault waiting for its requests. */
export interface PendingFault {
  readonly fault: FakeFault;
  readonly match: FaultMatch;
  remaining: number;
}

/** Tests a path against an expression; a `g` or `y` flag must not make the result depend on the last test. */
function matchesOnce(pattern: RegExp, path: string): boolean {
  pattern.lastIndex = 0;
  return pattern.test(path);
}

/**
 * Takes one use of the first pending fault that matches a request.
 *
 * @param pending - queued faults, used up ones are removed
 * @param method - the request's method
 * @param path - the request's path
 * @returns the fault to apply, if any
 */
export function takeFault(
  pending: PendingFault[],
  method: string,
  path: string,
): FakeFault | undefined {
  const index = pending.findIndex(
    ({ match }) =>
      (match.method === undefined || match.method.toUpperCase() === method) &&
      (match.path === undefined ||
        (typeof match.path === 'string' ? match.path === path : matchesOnce(match.path, path))),
  );
  const found = pending[index];
  if (found === undefined) return undefined;
  if (--found.remaining <= 0) pending.splice(index, 1);
  return found.fault;
}
