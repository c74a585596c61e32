/**
 * Secrets shorter than this are not searched for: they occur in ordinary text by chance. The SDK's redactor
 * has the same floor.
 */
export const MIN_SECRET_LENGTH = 4;

/** The text shown instead of a secret in transcripts. */
export const MASK = '***';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/**
 * The forms a secret commonly takes on the way into a response or a log line: as it is, URL-encoded,
 * JSON-escaped, base64 and base64url, the bare token of `Bearer x`, and `Basic` credentials pairing it with
 * each companion value (such as the user name).
 *
 * @param secret - a sensitive value
 * @param companions - non-sensitive values it may be paired with
 * @returns the distinct forms, longest first; empty when the secret is too short to search for
 * @internal
 */
export function secretForms(secret: string, companions: readonly string[] = []): string[] {
  const forms = new Set<string>();
  const add = (value: string) => {
    if (value.length >= MIN_SECRET_LENGTH) {
      forms.add(value);
      forms.add(encodeURIComponent(value));
      forms.add(JSON.stringify(value).slice(1, -1));
      // Padded for masking whole values, unpadded for finding them inside longer base64 text.
      forms.add(base64(value));
      forms.add(base64(value).replace(/=+$/, ''));
      forms.add(base64url(value));
    }
  };
  add(secret);
  const bearer = /^(?:bearer|basic|token)\s+(\S+)$/i.exec(secret);
  if (bearer?.[1] !== undefined) add(bearer[1]);
  if (secret.length >= MIN_SECRET_LENGTH) {
    for (const companion of companions) {
      if (companion === '') continue;
      forms.add(base64(`${companion}:${secret}`));
      forms.add(base64(`${companion}:${secret}`).replace(/=+$/, ''));
    }
  }
  return [...forms]
    .filter((form) => form.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
}

/** A set of secrets and every form of each: masks them in text and finds them. */
export class SecretSet {
  readonly #forms = new Set<string>();
  #companions: string[] = [];

  /**
   * Values that secrets may be paired with in `Basic` credentials.
   *
   * @param values - non-sensitive values such as user names
   */
  addCompanions(values: Iterable<string>): void {
    this.#companions = [...new Set([...this.#companions, ...values])];
  }

  /**
   * Adds a secret.
   *
   * @param value - a sensitive value
   */
  add(value: string): void {
    for (const form of secretForms(value, this.#companions)) this.#forms.add(form);
  }

  /**
   * Replaces every form of every secret with {@link MASK}.
   *
   * @param text - any text
   * @returns the text, masked
   */
  mask(text: string): string {
    let masked = text;
    for (const form of [...this.#forms].sort((a, b) => b.length - a.length))
      masked = masked.split(form).join(MASK);
    return masked;
  }

  /**
   * Whether the text holds any form of any secret.
   *
   * @param text - any text
   * @returns true on a leak
   */
  leaksIn(text: string): boolean {
    for (const form of this.#forms) if (text.includes(form)) return true;
    return false;
  }
}
