import { isCredentialKey } from './contract-rules.js';
import { MASK, SecretSet } from '../secrets/secret-forms.js';

interface EntryLike {
  readonly key?: unknown;
  readonly value?: unknown;
  readonly sensitive?: unknown;
}

/**
 * Masks what the simulator records. Secrets are learnt from parameter entries (config sent, session
 * answered): entries marked sensitive or keyed like a credential. They are masked by structure where their
 * place is known — an entry's `value`, a session header — whatever their length, and by search (with every
 * derived form) everywhere else.
 *
 * @internal
 */
export class SessionMasker {
  readonly #secrets = new SecretSet();
  readonly #sensitiveKeys = new Set<string>();

  /**
   * Learns the secrets of a list of entries; tolerates a list that is malformed as a whole.
   *
   * @param entries - parsed JSON that should be a list of `{ key, value, sensitive }`
   */
  learn(entries: unknown): void {
    if (!Array.isArray(entries)) return;
    const items = entries as EntryLike[];
    this.#secrets.addCompanions(
      items.flatMap((item) =>
        typeof item?.value === 'string' && !this.#isSecret(item) ? [item.value] : [],
      ),
    );
    for (const item of items) {
      if (typeof item?.value !== 'string' || !this.#isSecret(item)) continue;
      this.#secrets.add(item.value);
      if (typeof item.key === 'string') this.#sensitiveKeys.add(item.key.toLowerCase());
    }
  }

  /**
   * Masks free text: every known secret and its derived forms.
   *
   * @param text - any text
   */
  text(text: string): string {
    return this.#secrets.mask(text);
  }

  /**
   * Masks a body: the values of sensitive entries when it is a list of entries, then free text.
   *
   * @param body - the body as sent or received
   */
  body(body: string): string {
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return this.text(body);
    }
    if (!Array.isArray(parsed)) return this.text(body);
    const masked = (parsed as unknown[]).map((item) =>
      typeof item === 'object' && item !== null && this.#isSecret(item as EntryLike)
        ? { ...item, value: MASK }
        : item,
    );
    return this.text(JSON.stringify(masked));
  }

  /**
   * Masks headers: sensitive session headers and credential-like names whole, free text in the others.
   *
   * @param headers - request or response headers
   */
  headers(headers: Readonly<Record<string, string>>): Record<string, string> {
    const masked: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      masked[name] =
        this.#sensitiveKeys.has(name.toLowerCase()) || isCredentialKey(name)
          ? MASK
          : this.text(value);
    }
    return masked;
  }

  #isSecret(item: EntryLike): boolean {
    return item.sensitive === true || (typeof item.key === 'string' && isCredentialKey(item.key));
  }
}
