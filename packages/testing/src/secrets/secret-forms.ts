import { MIN_SECRET_LENGTH, secretForms } from '@connector-sdk/core';

/** The text shown instead of a secret in transcripts. */
export const MASK = '***';

/** A letter or a digit, before and after: a short secret's form next to one is part of a word, not the secret. */
const standaloneForm = (form: string) =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])${form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`,
    'gu',
  );

/**
 * The forms in which a secret would leak, which the kit looks for: exactly those the SDK's redactor replaces
 * (`secretForms` of `@connector-sdk/core`: as is, URL-, form-, WHATWG-URL- and JSON-encoded, base64 alone and inside longer base64,
 * hex, and the parts of `Bearer` and `Basic` credentials), with whole `Basic` credentials pairing the secret
 * with each companion value (such as the user name), for masking transcripts whole. A secret shorter than
 * {@link MIN_SECRET_LENGTH} characters counts only where it stands alone, as the redactor treats it.
 *
 * @param secret - a sensitive value
 * @param companions - non-sensitive values it may be paired with
 * @returns the forms found anywhere, longest first, and those found standing alone
 * @internal
 */
export function leakForms(
  secret: string,
  companions: readonly string[] = [],
): { anywhere: string[]; standalone: string[] } {
  const forms = secretForms(secret);
  const anywhere = new Set(forms.anywhere);
  if (secret.length >= MIN_SECRET_LENGTH) {
    for (const companion of companions) {
      if (companion !== '')
        anywhere.add(Buffer.from(`${companion}:${secret}`, 'utf8').toString('base64'));
    }
  }
  return {
    anywhere: [...anywhere].sort((a, b) => b.length - a.length),
    standalone: [...forms.standalone].sort((a, b) => b.length - a.length),
  };
}

/** A set of secrets and every form of each: masks them in text and finds them. */
export class SecretSet {
  readonly #anywhere = new Set<string>();
  readonly #standalone = new Map<string, RegExp>();
  #companions: string[] = [];

  /**
   * Values that secrets may be paired with in `Basic` credentials.
   *
   * @param values - non-sensitive values such as user names
   */
  addCompanions(values: Iterable<string>): void {
    this.#companions = [...new Set([...this.#companions, ...values])];
  }

  /** How many forms of secrets it looks for: 0 when no secret was added (or each was too short to find). */
  get size(): number {
    return this.#anywhere.size + this.#standalone.size;
  }

  /**
   * Adds a secret.
   *
   * @param value - a sensitive value
   */
  add(value: string): void {
    const forms = leakForms(value, this.#companions);
    for (const form of forms.anywhere) this.#anywhere.add(form);
    for (const form of forms.standalone)
      if (!this.#standalone.has(form)) this.#standalone.set(form, standaloneForm(form));
  }

  /**
   * Replaces every form of every secret with {@link MASK}.
   *
   * @param text - any text
   * @returns the text, masked
   */
  mask(text: string): string {
    let masked = text;
    for (const form of [...this.#anywhere].sort((a, b) => b.length - a.length))
      masked = masked.split(form).join(MASK);
    for (const pattern of this.#standalone.values()) masked = masked.replace(pattern, MASK);
    return masked;
  }

  /**
   * Whether the text holds any form of any secret.
   *
   * @param text - any text
   * @returns true on a leak
   */
  leaksIn(text: string): boolean {
    for (const form of this.#anywhere) if (text.includes(form)) return true;
    for (const pattern of this.#standalone.values()) {
      pattern.lastIndex = 0;
      if (pattern.test(text)) return true;
    }
    return false;
  }
}
