// What one request may spend on the forms of its secrets: what it paid for by sending them
// (ARCHITECTURE.md, D6).

/**
 * Most characters of forms one request may make, whatever it sends: past it, texts are redacted whole (see the
 * redactor). Below it, a request may make only what it paid for by sending its secrets (a 2 KB body of
 * escape-heavy secrets made 200,000 characters of forms, 26 times the CPU of the floor):
 * {@link BASE_FORM_CHARACTERS}, and {@link FORMS_PER_SECRET_CHARACTER} per character of its secrets.
 */
export const MAX_FORM_CHARACTERS = 200_000;

/** What any request may make, for the secrets connector code learns besides those it was sent. */
const BASE_FORM_CHARACTERS = 16_384;

/**
 * What each character of a secret adds to the request's allowance. A part of a secret makes a few forms of its
 * own length (six at most for each of its cases, and their folded forms, most of them the same), and base64
 * and hex forms of about 1.3 to 2.7 times it, whatever characters it holds: only the cost of each secret beyond
 * its characters, or a part with letters and every URL set's characters at once, can exceed this.
 */
const FORMS_PER_SECRET_CHARACTER = 64;

/**
 * What each secret costs besides its forms: making them takes about as long as this many characters of them,
 * whatever its length, so that a thousand one-character secrets (a body built to cost CPU) are over budget.
 */
const FORMS_PER_SECRET = 256;

/** What each character of a secret is judged to cost when it is registered, before any form is made. */
const ESTIMATE_PER_CHARACTER = 4;

/**
 * A request's budget for forms: judged as each secret is registered (in constant time, before any form is
 * made), and counted again as forms are made.
 *
 * @internal
 */
export class FormBudget {
  /** What the request may spend: what its secrets paid for, at most {@link MAX_FORM_CHARACTERS}. */
  #allowance = BASE_FORM_CHARACTERS;
  #estimate = 0;
  #made = 0;

  /**
   * Judges a secret of `length` characters as it is registered.
   *
   * @returns whether the request is still within its budget
   */
  register(length: number): boolean {
    this.#allowance = Math.min(
      MAX_FORM_CHARACTERS,
      this.#allowance + length * FORMS_PER_SECRET_CHARACTER,
    );
    this.#estimate += FORMS_PER_SECRET + length * ESTIMATE_PER_CHARACTER;
    return this.#estimate <= this.#allowance;
  }

  /**
   * Counts the characters of forms made for one secret, or more forms of secrets made before.
   *
   * @param secret - whether the work is a secret's first (which costs {@link FORMS_PER_SECRET} more)
   * @returns whether the request is still within its budget
   */
  spend(work: number, secret: boolean): boolean {
    this.#made += work + (secret ? FORMS_PER_SECRET : 0);
    return this.#made <= this.#allowance;
  }
}
