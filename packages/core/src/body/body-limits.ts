import { ConnectorError } from '../errors/connector-error.js';

/**
 * The body limits every binding applies unless told otherwise, so a connector behaves the same whichever
 * binding serves it.
 *
 * @internal shared by the bindings
 */
export const DEFAULT_BODY_LIMITS = Object.freeze({
  /** Largest request body accepted, in bytes (1 MiB). */
  maxBytes: 1_048_576,
  /** Longest time a request body may take to arrive, in milliseconds. */
  timeoutMs: 30_000,
  /** Longest time a request body may take to send its first bytes, in milliseconds. */
  firstBytesTimeoutMs: 5_000,
  /** Most bytes of bodies being read at once, over all requests of a handler (64 MiB). */
  maxBytesInFlight: 67_108_864,
  /** How long the rest of a refused or unread body is read and thrown away, in milliseconds. */
  lingerMs: 5_000,
  /** Most bytes of a refused or unread body thrown away (64 MiB). */
  lingerBytes: 67_108_864,
  /** Most bytes of an upload's multipart body (100 MiB). */
  maxUploadBytes: 104_857_600,
  /** Most bytes of one text field of an upload (64 KiB). */
  maxUploadFieldBytes: 65_536,
  /** Most bytes of an upload's file read ahead to reach a field sent after it (1 MiB). */
  uploadReadAheadBytes: 1_048_576,
});

/** The longest delay `setTimeout` keeps: Node fires a longer one after 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Checks a binding's `bodyTimeoutMs`: at least 1 ms, `Infinity` for none. Every binding refuses the same
 * values, so a connector behaves the same whichever binding serves it.
 *
 * @throws TypeError for a value below 1 or not a number
 * @internal shared by the bindings
 */
export function checkBodyTimeout(timeoutMs: number): number {
  if (!(timeoutMs >= 1)) throw new TypeError('bodyTimeoutMs must be at least 1');
  return timeoutMs;
}

/**
 * Calls `onTimeout` after `timeoutMs`, through an unreferenced timer; nothing for a timeout longer than a
 * timer can keep (`Infinity`, or past 24.8 days), which Node would otherwise fire after 1 ms.
 *
 * @internal shared by the bindings
 */
export function bodyTimer(
  timeoutMs: number,
  onTimeout: () => void,
): ReturnType<typeof setTimeout> | undefined {
  if (timeoutMs > MAX_TIMER_MS) return undefined;
  const timer = setTimeout(onTimeout, timeoutMs);
  timer.unref?.();
  return timer;
}

/**
 * The bytes of request bodies a handler is reading at once, and their bound (300 slow 1 MiB bodies held 300 MB
 * until their 408s; ARCHITECTURE.md, D15). A body takes from it as its bytes arrive, plus a read ahead (see
 * `BodyWatch.hold`): a declared `Content-Length` alone takes little.
 *
 * @internal shared by the bindings
 */
export class BodyBudget {
  #held = 0;

  /** @param max - most bytes held at once */
  constructor(readonly max: number) {
    if (!(max >= 1)) throw new TypeError('maxBodyBytesInFlight must be at least 1');
  }

  /** Takes `bytes` if they fit; `false` when they do not. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.max) return false;
    this.#held += bytes;
    return true;
  }

  /** Gives back bytes taken. */
  give(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /** The bytes held now; for tests. */
  get held(): number {
    return this.#held;
  }
}

/**
 * The error of a body that would go past the {@link BodyBudget}: a 503, a temporary refusal.
 *
 * @internal shared by the bindings
 */
export const bodyBudgetExceeded = (): ConnectorError =>
  new ConnectorError(
    'SERVICE_UNAVAILABLE',
    'The connector is receiving too many request bodies at once; try again shortly',
  );
