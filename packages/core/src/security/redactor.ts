import { FormMatcher, StandaloneMatcher } from './form-matcher.js';
import { loggedValue } from './logged-value.js';
import { MIN_SECRET_LENGTH, formFloor } from './secret-parts.js';
import { ByteFormSet, NO_BYTE_FORMS } from './byte-form-set.js';
import { searchedForms } from './searched-forms.js';
import { FormBudget } from './form-budget.js';
import { DIRECT_SEARCH_WORK, merge, searchEach, viewsOf } from './form-search.js';
import { LONGEST_ESCAPE, MOST_CHARACTERS_PER_UNIT, type TextView } from './text-views.js';
import { foldedView } from './folded-view.js';

/** What replaces a secret, or a form derived from it, in error bodies and log lines. */
export const REDACTED = '[REDACTED]';

/** The matcher of a request without short secrets: shared, since making one per request cost more than a 401. */
const NO_STANDALONE_FORMS = new StandaloneMatcher([]);
/** The forms of a request none were made for yet: shared, never written to (see {@link Redactor}). */
const NO_FORMS: readonly string[] = Object.freeze([]);

/**
 * Replaces secrets, and the forms derived from them, in text and in values about to be logged. A text is
 * searched as it is and as each family of escapes it holds decodes it (text-views.ts), for each secret's few
 * forms; base64 and hex forms are made only when a text has a run of such characters long enough to hold one.
 * The text and each view are also searched folded (folded-view.ts: case, NFKC, characters that do not show and
 * line breaks), for each secret's forms folded alike.
 *
 * A redactor lives as long as its request. What it holds for every request is made with `new` or shared until
 * written, never from an array or object literal: V8 moves a literal's allocation site to the old generation
 * once most of what it made outlived a few young collections, as it does for requests that wait on an end
 * system, and every short request then made those objects in the old generation too (issue 31, the later call's
 * tail).
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
  #anywhere: Set<string> | undefined;
  #forms = NO_FORMS as string[];
  #matcher: FormMatcher | undefined;
  /** The forms folded, searched in the folded views of a text. */
  #folded = NO_FORMS as string[];
  #foldedSet: Set<string> | undefined;
  #foldedMatcher: FormMatcher | undefined;
  #standaloneForms: Set<string> | undefined;
  /** The forms of short secrets, found where they stand alone. */
  #standalone = NO_STANDALONE_FORMS;
  /** The base64 and hex forms, made when a text may hold one. */
  #bytes = NO_BYTE_FORMS;
  /** The longest form of a short secret, and the character that tells whether it stands alone. */
  #longestStandalone = 0;
  /** The shortest text that can hold a form. */
  #shortest = MIN_SECRET_LENGTH;
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
    this.#anywhere = undefined;
    this.#forms = NO_FORMS as string[];
    this.#matcher = undefined;
    this.#folded = NO_FORMS as string[];
    this.#foldedSet = undefined;
    this.#foldedMatcher = undefined;
    this.#bytes = NO_BYTE_FORMS;
  }

  /** The secrets registered so far, for a test kit's recorder (issue 37). @internal */
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
   * its cost stays bounded by what it sends (issues 16 and 31).
   */
  #makeForms(length: number): void {
    const pending = this.#pending;
    if (pending === undefined) return;
    if (this.#unfloored) this.#floorAdded(pending);
    if (length < this.#pendingFloor) return;
    this.#pending = undefined;
    this.#pendingFloor = Infinity;
    const anywhere = (this.#anywhere ??= new Set());
    const standaloneForms = (this.#standaloneForms ??= new Set());
    let standaloneAdded = false;
    if (this.#forms === NO_FORMS) this.#forms = [];
    if (this.#folded === NO_FORMS) this.#folded = [];
    const foldedSet = (this.#foldedSet ??= new Set());
    for (const [value, floor] of pending) {
      if (floor > length) {
        (this.#pending ??= new Map()).set(value, floor);
        if (floor < this.#pendingFloor) this.#pendingFloor = floor;
        continue;
      }
      const forms = searchedForms(value);
      if (!this.#spend(forms.work, value, true)) return;
      for (const form of forms.anywhere) {
        if (anywhere.has(form)) continue;
        anywhere.add(form);
        this.#forms.push(form);
      }
      for (const form of forms.folded) {
        if (foldedSet.has(form)) continue;
        foldedSet.add(form);
        this.#folded.push(form);
      }
      for (const form of forms.standalone) {
        if (standaloneForms.has(form)) continue;
        standaloneForms.add(form);
        standaloneAdded = true;
      }
      if (forms.bytes.length > 0) {
        if (this.#bytes === NO_BYTE_FORMS) this.#bytes = new ByteFormSet();
        this.#bytes.add(forms.bytes);
      }
    }
    this.#matcher = undefined;
    this.#foldedMatcher = undefined;
    if (standaloneAdded) {
      this.#standalone = new StandaloneMatcher([...standaloneForms]);
      this.#longestStandalone = this.#standalone.longest + 2;
      this.#shortest = Math.min(MIN_SECRET_LENGTH, this.#standalone.shortest);
    }
  }

  /** Makes the base64 and hex forms not made yet, within the budget; false when it is spent. */
  #makeByteForms(): boolean {
    const work = this.#bytes.make();
    return work === 0 || this.#spend(work, this.#secrets.values().next().value as string, false);
  }

  /** Whether no form is made yet: every secret's forms are longer than any text redacted so far. */
  #holdsNoForm(): boolean {
    return this.#forms.length === 0 && this.#standalone.isEmpty && this.#bytes === NO_BYTE_FORMS;
  }

  /** Where forms occur in a text (or a view of one): form by form when short, else in one pass. */
  #search(text: string, found: [number, number][]): void {
    if (this.#forms.length * text.length <= DIRECT_SEARCH_WORK)
      searchEach(this.#forms, text, found);
    else found.push(...(this.#matcher ??= new FormMatcher(this.#forms)).ranges(text));
  }

  /**
   * Where folded forms occur in the folded view of a text or of one of its views, as ranges of the text. A
   * text that folding leaves as it is (lower-case ASCII without line breaks) holds no folded form the forms did
   * not find: it is not searched again.
   */
  #searchFolded(view: TextView | undefined, text: string, found: [number, number][]): void {
    const fold = foldedView(text);
    if (fold === text || this.#folded.length === 0) return;
    const folded = typeof fold === 'string' ? fold : fold.text;
    const inFold: [number, number][] = [];
    if (this.#folded.length * folded.length <= DIRECT_SEARCH_WORK)
      searchEach(this.#folded, folded, inFold);
    else inFold.push(...(this.#foldedMatcher ??= new FormMatcher(this.#folded)).ranges(folded));
    for (const [start, end] of inFold) {
      // Back through the fold (none when it kept every character in place), then through the view.
      let from = typeof fold === 'string' ? start : (fold.from[start] as number);
      let to = typeof fold === 'string' ? end : (fold.to[end - 1] as number);
      if (view !== undefined) {
        from = view.from[from] as number;
        to = view.to[to - 1] as number;
      }
      found.push([from, to]);
    }
  }

  /** Every stretch of `text` a form covers, in the text itself and in each view of it. */
  #ranges(text: string): [number, number][] {
    const found: [number, number][] = [];
    this.#search(text, found);
    const standalone = !this.#standalone.isEmpty;
    if (standalone) found.push(...this.#standalone.ranges(text));
    this.#searchFolded(undefined, text, found);
    for (const view of viewsOf(text)) {
      const inView: [number, number][] = [];
      this.#search(view.text, inView);
      if (standalone) inView.push(...this.#standalone.ranges(view.text));
      for (const [start, end] of inView)
        found.push([view.from[start] as number, view.to[end - 1] as number]);
      this.#searchFolded(view, view.text, found);
    }
    if (this.#bytes.mayHold(text)) {
      const bytes = this.#bytes;
      if (!this.#makeByteForms()) return [[0, text.length]];
      bytes.search(text, found);
    }
    return merge(found);
  }

  /**
   * Replaces every secret form in a text, found as it is or through any escapes. Overlapping matches merge, so
   * two secrets that overlap are hidden whole. Forms of secrets shorter than {@link MIN_SECRET_LENGTH} are
   * replaced where they stand alone.
   *
   * @param text - any text
   * @returns the text with every secret form replaced by `[REDACTED]`; `[REDACTED]` when the request's
   *   secrets are over budget
   */
  redact(text: string): string {
    if (this.#secrets.size === 0 || text === '') return text;
    this.#makeForms(text.length);
    if (this.#overwhelmed) return REDACTED;
    if (text.length < this.#shortest || this.#holdsNoForm()) return text;
    const ranges = this.#ranges(text);
    if (this.#overwhelmed) return REDACTED;
    return ranges.length === 0 ? text : replaced(text, ranges);
  }

  /**
   * Where {@link redact} finds secret forms in a text, in order and merged: for a test kit's recorder, which
   * replaces each secret with a placeholder of its own rather than `[REDACTED]` (issue 37).
   *
   * @param text - any text
   * @returns `[start, end)` pairs; the whole text when the secrets are over budget
   * @internal
   */
  find(text: string): [number, number][] {
    if (this.#secrets.size === 0 || text === '') return [];
    this.#makeForms(text.length);
    if (!this.#overwhelmed && (text.length < this.#shortest || this.#holdsNoForm())) return [];
    const ranges = this.#overwhelmed ? [] : this.#ranges(text);
    return this.#overwhelmed ? [[0, text.length]] : ranges;
  }

  /**
   * Redacts, then shortens (issue 16, finding 2: clipping first showed every character of a secret before the
   * cut). When the text is shortened, a tail that is the start of a secret form (written in any escapes, or an
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
      Math.max(this.#longestSecret, this.#longestStandalone) * MOST_CHARACTERS_PER_UNIT +
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
    const matcher = (this.#matcher ??= new FormMatcher(this.#forms));
    let at =
      kept.length - Math.max(matcher.pendingStart(kept), this.#standalone.pendingStart(kept));
    const fold = this.#folded.length > 0 ? foldedView(kept) : kept;
    if (fold !== kept) {
      // The start of a secret in another case or spelling, which only the folded view shows as one.
      const folded = typeof fold === 'string' ? fold : fold.text;
      const pending = (this.#foldedMatcher ??= new FormMatcher(this.#folded)).pendingStart(folded);
      if (pending > 0) {
        const start = folded.length - pending;
        at = Math.min(at, typeof fold === 'string' ? start : (fold.from[start] as number));
      }
    }
    if (this.#bytes.mayEndIn(kept)) {
      const bytes = this.#bytes;
      if (!this.#makeByteForms()) return 0;
      at = Math.min(at, kept.length - bytes.pendingStart(kept));
    }
    for (const view of viewsOf(kept)) {
      // What precedes an escape cut in two, which is dropped whatever it would have been.
      let units = view.text.length;
      while (units > 0 && (view.from[units - 1] as number) >= view.cut) units--;
      const decoded = view.text.slice(0, units);
      const pending = Math.max(
        matcher.pendingStart(decoded),
        this.#standalone.pendingStart(decoded),
      );
      if (pending > 0) at = Math.min(at, view.from[units - pending] as number);
      at = Math.min(at, view.cut);
    }
    return at;
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
