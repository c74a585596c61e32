import type { ParameterEntry } from '../../contract/schemas.js';
import { ValidationError } from '../../errors/errors.js';
import type { InitializeInput } from './initialize-input.js';

/** Configuration values shorter than this are not blamed: against the session's budget they hardly count. */
const MIN_BLAMED_LENGTH = 64;
/** The longest configuration values looked for in the session, so the search costs a bounded amount. */
const MAX_SUSPECTS = 8;

/**
 * When the session an initialize answered is over the header budget because it carries values the caller
 * configured (the end system's URL, a project from a JSON field, as the docs' tracker does), the caller's
 * error: a `400 INVALID_CONFIGURATION` naming the fields, never their values. A caller can send a URL of a
 * megabyte, and an answer that says the connector is broken (a 500) is wrong and hides what to fix. `undefined`
 * when what the caller sent does not account for the overflow: then the connector's session is too large
 * whatever the caller does, which stays the author's bug.
 *
 * Runs only on that failure, over the few longest configuration values.
 *
 * @param session - the entries initialize answered
 * @param input - the initialize body: its raw entries and its typed configuration
 * @param size - the bytes the session takes as headers, and its budget
 * @internal
 */
export function oversizedConfiguration(
  session: readonly ParameterEntry[],
  input: InitializeInput,
  size: { readonly bytes: number; readonly budget: number },
): ValidationError | undefined {
  const { budget } = size;
  const overflow = size.bytes - budget;
  const suspects: { key: string; value: string }[] = [];
  for (const { key, value } of input.entries) {
    if (value.length >= MIN_BLAMED_LENGTH) suspects.push({ key, value });
    // A field's typed value may differ from what was sent (a URL normalised, text trimmed).
    const typed = input.config[key];
    if (typeof typed === 'string' && typed !== value && typed.length >= MIN_BLAMED_LENGTH)
      suspects.push({ key, value: typed });
  }
  if (suspects.length === 0) return undefined;
  suspects.sort((a, b) => b.value.length - a.value.length);
  const blamed = new Set<string>();
  let carried = 0;
  for (const entry of session) {
    const value = entry.value;
    if (value.length < MIN_BLAMED_LENGTH) continue;
    for (const suspect of suspects.slice(0, MAX_SUSPECTS)) {
      // The session value holds the configured one (`${config.url}`), or is a part of it (a JSON field's member).
      const shared = value.includes(suspect.value)
        ? suspect.value.length
        : suspect.value.includes(value)
          ? value.length
          : 0;
      if (shared === 0) continue;
      blamed.add(suspect.key);
      carried += shared;
      break;
    }
  }
  if (blamed.size === 0 || carried < overflow) return undefined;
  const names = [...blamed].map((key) => `'${key.length > 64 ? `${key.slice(0, 64)}…` : key}'`);
  return new ValidationError(
    `The configuration does not fit in the session this connector answers: ${names.join(', ')} ${
      names.length === 1 ? 'is' : 'are'
    } too long (the session's headers may take at most ${budget} bytes, and these values put it ${overflow} bytes over)`,
    { code: 'INVALID_CONFIGURATION' },
  );
}
