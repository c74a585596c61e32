/**
 * Where code that runs inside a request (the end-system client) registers the secrets it learns and redacts
 * before it clips: the request's redactor, reached through the logger connector code passes on (`context.log`)
 * without any new option (ARCHITECTURE.md, D4). A registry symbol, so two copies of the package (ESM
 * and CJS) find each other's.
 *
 * @internal
 */
export interface SecretSink {
  /** Registers a secret for the rest of the request. */
  add(value: string): void;
  /** Replaces every known secret form in a text. */
  redact(text: string): string;
  /** The secrets registered so far (the test kit's recorder scrubs them from its cassettes). */
  values(): readonly string[];
  /** Redacts, then shortens to `max` characters, dropping a tail that could be the start of a secret. */
  clip(text: string, max: number): string;
}

/**
 * The symbol under which a request's logger carries its secret sink (see `createRequestLogger`).
 *
 * @internal
 */
export const SECRET_SINK = Symbol.for('@connector-sdk/secret-sink');

/** @internal The secret sink of a request's logger, or `undefined` for any other logger. */
export function secretSinkOf(logger: unknown): SecretSink | undefined {
  if (typeof logger !== 'object' || logger === null) return undefined;
  const sink = (logger as Record<symbol, unknown>)[SECRET_SINK];
  return typeof sink === 'object' && sink !== null ? (sink as SecretSink) : undefined;
}
