/**
 * Secrets shorter than this are not searched for in free text: they occur in ordinary text by chance (the
 * SDK's redactor has the same floor). The simulator still masks them where it knows they are: the values of
 * sensitive entries and of sensitive session headers.
 */
export const MIN_SECRET_LENGTH = 4;

/** The text shown instead of a secret in transcripts. */
export const MASK = '***';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const toUrl = (encoded: string) => encoded.replace(/\+/g, '-').replace(/\//g, '_');

/**
 * The base64 characters a secret always produces when it sits at byte offset 0, 1 or 2 of a 3-byte group,
 * whatever surrounds it — so `Basic base64(anyone:secret)` is found without knowing `anyone`.
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const core = encoded.slice(offset === 0 ? 0 : 4, Math.floor((offset + bytes.length) / 3) * 4);
    if (core.length >= 6) cores.push(core, toUrl(core));
  }
  return cores;
}

/** JSON with every non-ASCII character escaped, as some serialisers write it. */
const asciiJson = (value: string) =>
  JSON.stringify(value)
    .slice(1, -1)
    .replace(
      /[\u0080-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );

/**
 * The forms a secret commonly takes on the way into a response or a log line: as it is, URL-encoded (both
 * ways), JSON-escaped (both ways), base64 and base64url at every alignment, the bare token of `Bearer x`, and
 * whole `Basic` credentials pairing it with each companion value (such as the user name).
 *
 * @param secret - a sensitive value
 * @param companions - non-sensitive values it may be paired with
 * @returns the distinct forms, longest first; empty when the secret is too short to search for
 * @internal
 */
export function secretForms(secret: string, companions: readonly string[] = []): string[] {
  const forms = new Set<string>();
  const add = (value: string) => {
    if (value.length < MIN_SECRET_LENGTH) return;
    forms.add(value);
    forms.add(encodeURIComponent(value));
    forms.add(new URLSearchParams({ v: value }).toString().slice(2));
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(asciiJson(value));
    // Padded for masking whole values; the cores find it inside longer base64 text.
    forms.add(base64(value));
    forms.add(toUrl(base64(value)).replace(/=+$/, ''));
    for (const core of base64Cores(value)) forms.add(core);
  };
  add(secret);
  const token = /^(?:bearer|basic|token)\s+(\S+)$/i.exec(secret)?.[1];
  if (token !== undefined) add(token);
  if (secret.length >= MIN_SECRET_LENGTH) {
    for (const companion of companions)
      if (companion !== '') forms.add(base64(`${companion}:${secret}`));
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
