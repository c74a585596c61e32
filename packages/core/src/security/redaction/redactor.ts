import { loggedValue } from '../logged-value.js';
import { MadeForms } from './made-forms.js';
import { formFloor } from './secret-parts.js';
import { searchedForms } from './searched-forms.js';
import { FormBudget } from './form-budget.js';
import { LONGEST_ESCAPE, MOST_CHARACTERS_PER_UNIT } from './text-views.js';

/**
 * What replaces a secret, or a form derived from it, in error bodies and log lines.
 *
 * @example
 * ```ts
 * import { REDACTED } from '@connector-sdk/core';
 *
 * declare const logLine: string;
 * const scrubbed = logLine.includes(REDACTED); // a secret was replaced in it
 * ```
 */
export const REDACTED = '[REDACTED]';

/**
 * Replaces secrets, and the forms derived from them, in text and in values about to be logged. A text is
 * searched as it is and as each family of escapes it holds decodes it (text-views.ts), for each secret's few
 * forms; base64 and hex forms are made only when a text has a run of such characters long enough to hold one.
 * The text and each view are also searched folded (folded-view.ts: case, NFKC, characters that do not show and
 * line breaks), for each secret's forms folded alike. The redactor keeps the secrets and the budget, and
 * decides when their forms are made; the forms made, and the searches for them, are {@link MadeForms}'.
 *
 * A redactor lives as long as its request. What it holds for every request is made with `new` or shared until
 * written, never from an array or object literal: V8 moves a literal's allocation site to the old generation
 * once most of what it made outlived a few young collections, as it does for requests that wait on an end
 * system, and every short request then made those objects in the old generation too (a later call's
 * p99 more than doubled; ARCHITECTURE.md, D21).
 *
 * @internal used by the handler; connector code gets a redacting logger instead
 */
export class Redactor {
  readonly #secrets = new Set<string>();
  /**
   * Secrets whose forms are not made yet, and the length no form of each is shorter than: forms are made when
   * a text long enough to hold one is first redacted, and only once. The floor is `NaN` for a secret added since
   * the last redaction: most requests redact nothing, so it is found when a text is first redacted.
   */
  #pending: Map<string, number> | undefined;
  /** The least floor of the pending secrets whose floor is known. */
  #pendingFloor = Infinity;
  /** Whether a pending secret's floor is not found yet. */
  #unfloored = false;
  /** The longest secret: no text form of one is longer. */
  #longestSecret = 0;
  /** The forms made so far: none until a text long enough to hold one is first redacted. */
  #made: MadeForms | undefined;
  /** Set when the forms of this request's secrets exceed its budget: every text is redacted whole. */
  #overwhelmed = false;
  readonly #budget = new FormBudget();

  /** @param secrets - initial secret values; empty strings are ignored */
  constructor(secrets?: Iterable<string>) {
    if (secrets !== undefined) for (const value of secrets) this.add(value);
  }

  /** Adds a secret value. */
  add(value: string): void {
    // Past the budget every text is redacted whole: nothing more to remember, nor to hash.
    if (value === '' || this.#overwhelmed || this.#secrets.has(value)) return;
    if (!this.#budget.register(value.length)) {
      this.#overwhelm(value);
      return;
    }
    this.#secrets.add(value);
    (this.#pending ??= new Map()).set(value, NaN);
    this.#unfloored = true;
    if (value.length > this.#longestSecret) this.#longestSecret = value.length;
  }

  /** Finds the floors of the secrets added since the last redaction. */
  #floorAdded(pending: Map<string, number>): void {
    this.#unfloored = false;
    for (const [value, known] of pending) {
      if (!Number.isNaN(known)) continue;
      const floor = formFloor(value);
      pending.set(value, floor);
      if (floor < this.#pendingFloor) this.#pendingFloor = floor;
    }
  }

  /** Counts what making forms cost; past the budget, drops every form. */
  #spend(work: number, value: string, secret: boolean): boolean {
    if (this.#budget.spend(work, secret)) return true;
    this.#overwhelm(value);
    return false;
  }

  /** Drops every form: from now on texts are redacted whole. `value` is kept so that the set is not empty. */
  #overwhelm(value: string): void {
    this.#overwhelmed = true;
    this.#secrets.clear();
    this.#secrets.add(value);
    this.#pending = undefined;
    this.#pendingFloor = Infinity;
    this.#unfloored = false;
    this.#made?.drop();
  }

  /** The secrets registered so far, for a test kit's recorder (ARCHITECTURE.md, D23). @internal */
  values(): string[] {
    return [...this.#secrets];
  }

  /** Whether any secret is known. */
  get isEmpty(): boolean {
    return this.#secrets.size === 0;
  }

  /**
   * Makes the forms of the secrets that a text of `length` characters may hold, and that were not made yet,
   * within the budget: a request whose secrets' forms cost more than it paid for is redacted whole instead, so
   * its cost stays bounded by what it sends (ARCHITECTURE.md, D6).
   */
  #makeForms(length: number): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    if (this.#unfloored) this.#floorAdded(pending);
    if (length < this.#pendingFloor) return;
    this.#pending = undefined;
    this.#pendingFloor = Infinity;
    // Base64 and hex forms are made later, when a text may hold one: their work is counted then.
    const made = (this.#made ??= new MadeForms((work) =>
      this.#spend(work, this.#secrets.values().next().value as string, false),
    ));
    for (const [value, floor] of pending) {
      if (floor > length) {
        (this.#pending ??= new Map()).set(value, floor);
        if (floor < this.#pendingFloor) this.#pendingFloor = floor;
        continue;
      }
      const forms = searchedForms(value);
      if (!this.#spend(forms.work, value, true)) return;
      made.add(forms);
    }
    made.settle();
  }

  /** Whether `text` can hold no form: it is shorter than any form made, or none is made yet. */
  #holdsNoForm(text: string): boolean {
    const made = this.#made;
    return made === undefined || text.length < made.shortest || made.holdsNoForm();
  }

  /**
   * Replaces every secret form in a text, found as it is or through any escapes. Overlapping matches merge, so
   * two secrets that overlap are hidden whole. Forms of secrets shorter than `MIN_SECRET_LENGTH`
   * (secret-parts.ts) are replaced where they stand alone.
   *
   * @param text - any text
   * @returns the text with every secret form replaced by `[REDACTED]`; `[REDACTED]` when the request's
   *   secrets are over budget
   */
  redact(text: string): string {
    if (this.#secrets.size === 0 || text === '') return text;
    this.#makeForms(text.length);
    if (this.#overwhelmed) return REDACTED;
    if (this.#holdsNoForm(text)) return text;
    const ranges = (this.#made as MadeForms).ranges(text);
    if (this.#overwhelmed) return REDACTED;
    return ranges.length === 0 ? text : replaced(text, ranges);
  }

  /**
   * Where {@link redact} finds secret forms in a text, in order and merged: for a test kit's recorder, which
   * replaces each secret with a placeholder of its own rather than `[REDACTED]` (ARCHITECTURE.md, D23).
   *
   * @param text - any text
   * @returns `[start, end)` pairs; the whole text when the secrets are over budget
   * @internal
   */
  find(text: string): [number, number][] {
    if (this.#secrets.size === 0 || text === '') return [];
    this.#makeForms(text.length);
    if (!this.#overwhelmed && this.#holdsNoForm(text)) return [];
    const ranges = this.#overwhelmed ? [] : (this.#made as MadeForms).ranges(text);
    return this.#overwhelmed ? [[0, text.length]] : ranges;
  }

  /**
   * Redacts, then shortens (clipping first showed every character of a secret before the cut; ARCHITECTURE.md,
   * D4). When the text is shortened, a tail that is the start of a secret form (written in any escapes, or an
   * escape cut in two) is dropped too.
   *
   * @param text - any text
   * @param max - most characters kept
   * @returns the redacted text, at most `max` characters and an ellipsis
   */
  clip(text: string, max: number): string {
    // Only what can reach the kept part is redacted: the cost follows `max`, not the text. No form is longer
    // than its secret, or than 6 characters per character of it for hex of three-byte characters.
    const reach =
      Math.max(this.#longestSecret, this.#made?.longestStandalone ?? 0) * MOST_CHARACTERS_PER_UNIT +
      LONGEST_ESCAPE;
    const window = text.length > max + reach ? text.slice(0, max + reach) : text;
    const redacted = this.redact(window);
    if (redacted.length <= max && window.length === text.length) return redacted;
    const kept = redacted.slice(0, max);
    const at = this.#overwhelmed || this.#secrets.size === 0 ? kept.length : this.#cutAt(kept);
    return `${kept.slice(0, at)}…`;
  }

  /** Where a clipped text must end so that no start of a secret form, in any view of it, is left at its end. */
  #cutAt(kept: string): number {
    // Any secret's form may start in the tail, however short the text.
    this.#makeForms(Infinity);
    if (this.#overwhelmed) return 0;
    return (this.#made as MadeForms).cutAt(kept);
  }

  /**
   * Deep-copies a value for logging, redacting every string in it, keys included (see logged-value.ts).
   *
   * @param value - anything a log call received
   * @returns a redacted copy that is safe to log
   */
  redactValue(value: unknown): unknown {
    return loggedValue(value, this);
  }
}

/** The text with each range replaced by {@link REDACTED}. */
function replaced(text: string, ranges: readonly [number, number][]): string {
  let result = '';
  let end = 0;
  for (const [start, stop] of ranges) {
    result += `${text.slice(end, start)}${REDACTED}`;
    end = stop;
  }
  return `${result}${text.slice(end)}`;
}
