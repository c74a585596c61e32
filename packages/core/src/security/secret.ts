import { inspect } from 'node:util';
import { REDACTED } from './redaction/redactor.js';

const BRAND = Symbol.for('@connector-sdk/core.Secret');

/**
 * A string marked as sensitive. Returned from `initialize`, it becomes a parameter entry with
 * `sensitive: true`, and the SDK keeps its value out of logs and error bodies. Printing or serialising the
 * wrapper shows `[REDACTED]`; {@link Secret.reveal} gives the value.
 *
 * @example
 * ```ts
 * import { secret, type InitializeContext } from '@connector-sdk/core';
 * declare function login(config: { url: string }): Promise<string>;
 * async function initialize({ config }: InitializeContext<{ url: string }>) {
 *   const token = await login(config);
 *   return { Authorization: secret(`Bearer ${token}`), 'X-Acme-Url': config.url };
 * }
 * ```
 */
export class Secret {
  readonly #value: string;
  /** @internal */
  readonly [BRAND] = true;

  /** @param value - the sensitive string */
  constructor(value: string) {
    this.#value = value;
  }

  /** @returns the sensitive value itself */
  reveal(): string {
    return this.#value;
  }

  /** @returns `[REDACTED]`, so that template strings and logs never show the value */
  toString(): string {
    return REDACTED;
  }

  /** @returns `[REDACTED]`, so that `JSON.stringify` never shows the value */
  toJSON(): string {
    return REDACTED;
  }

  /** @internal keeps `console.log` and `util.inspect` from showing the value */
  [inspect.custom](): string {
    return `Secret(${REDACTED})`;
  }
}

/**
 * Marks a value as sensitive.
 *
 * @param value - the sensitive string, such as a bearer token
 * @returns a {@link Secret} wrapping it
 * @example
 * ```ts
 * import { secret } from '@connector-sdk/core';
 * declare const token: string; // from the end system's login
 * const session = { Authorization: secret(`Bearer ${token}`) };
 * ```
 */
export function secret(value: string): Secret {
  return new Secret(value);
}

/**
 * Whether a value is a {@link Secret}, also one made by another copy of the SDK.
 *
 * @param value - anything
 * @returns true for secrets
 * @example
 * ```ts
 * import { isSecret } from '@connector-sdk/core';
 * declare const value: unknown; // a session value, plain or secret
 * const text = isSecret(value) ? value.reveal() : String(value);
 * ```
 */
export function isSecret(value: unknown): value is Secret {
  return (
    value instanceof Secret ||
    (typeof value === 'object' &&
      value !== null &&
      (value as { [BRAND]?: unknown })[BRAND] === true)
  );
}
