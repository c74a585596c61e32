import { FormMatcher } from './form-matcher.js';
import { DIRECT_SEARCH_WORK, searchEach } from './form-search.js';
import { searchedByteForms, shortestByteFormOf } from './searched-forms.js';

/** Whether a code unit is one of base64's, base64url's or hex's characters (or `=` padding). */
const isBase64 = (code: number): boolean =>
  (code >= 0x30 && code <= 0x39) ||
  ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) ||
  code === 0x2b ||
  code === 0x2f ||
  code === 0x3d ||
  code === 0x5f ||
  code === 0x2d;

/**
 * The base64 and hex forms of a request's secrets, made only when a text may hold one: they are about 15
 * characters per character of a part, where its text forms are a few, and most texts (a message, a log
 * field) have no run of base64 characters long enough to hold one.
 *
 * @internal
 */
export class ByteFormSet {
  /** The parts whose forms count; the first `#made` of them have theirs in `#forms`. */
  readonly #parts: string[] = [];
  #made = 0;
  readonly #forms: string[] = [];
  #matcher: FormMatcher | undefined;
  /** The shortest form any part has, judged from the parts' lengths. */
  #shortest = Infinity;

  /** Adds the parts of one secret. */
  add(parts: readonly string[]): void {
    if (parts.length === 0) return;
    this.#parts.push(...parts);
    this.#shortest = Math.min(this.#shortest, shortestByteFormOf(parts));
  }

  /**
   * Whether the text has a run of base64 characters long enough to hold a form, in one pass (a regular
   * expression counting up to the length tried every start of every shorter run).
   */
  mayHold(text: string): boolean {
    if (this.#parts.length === 0) return false;
    let run = 0;
    for (let i = 0; i < text.length; i++) {
      run = isBase64(text.charCodeAt(i)) ? run + 1 : 0;
      if (run >= this.#shortest) return true;
    }
    return false;
  }

  /** Whether the text ends with a base64 character, where the start of a form may be. */
  mayEndIn(text: string): boolean {
    return this.#parts.length > 0 && text.length > 0 && isBase64(text.charCodeAt(text.length - 1));
  }

  /**
   * Makes the forms of the parts added since the last call.
   *
   * @returns how many characters making them wrote
   */
  make(): number {
    if (this.#made === this.#parts.length) return 0;
    const { forms, work } = searchedByteForms(this.#parts.slice(this.#made));
    this.#made = this.#parts.length;
    this.#forms.push(...forms);
    this.#matcher = undefined;
    return work;
  }

  /** Where the forms made occur in a text: form by form when short, else in one pass. */
  search(text: string, found: [number, number][]): void {
    if (this.#forms.length * text.length <= DIRECT_SEARCH_WORK)
      searchEach(this.#forms, text, found);
    else found.push(...(this.#matcher ??= new FormMatcher(this.#forms)).ranges(text));
  }

  /** How many characters at the end of `text` are the start of a form made. */
  pendingStart(text: string): number {
    return (this.#matcher ??= new FormMatcher(this.#forms)).pendingStart(text);
  }
}

/** The byte forms of a request without any: shared, never added to (see `Redactor`). @internal */
export const NO_BYTE_FORMS = new ByteFormSet();
