// The forms a redactor has made of its request's secrets so far, and where they occur in a text: as it is, in
// each view of it (text-views.ts), folded (folded-view.ts), and, for short secrets, where they stand alone. The
// redactor (redactor.ts) decides which secrets' forms are made and when, within the request's budget; this holds
// what it made and searches for it.
import { FormMatcher, StandaloneMatcher } from './form-matcher.js';
import { MIN_SECRET_LENGTH } from './secret-parts.js';
import { ByteFormSet, NO_BYTE_FORMS } from './byte-form-set.js';
import type { SearchedForms } from './searched-forms.js';
import { DIRECT_SEARCH_WORK, merge, searchEach, viewsOf } from './form-search.js';
import type { TextView } from './text-views.js';
import { foldedView } from './folded-view.js';

/** The matcher of a request without short secrets: shared, since making one per request cost more than a 401. */
const NO_STANDALONE_FORMS = new StandaloneMatcher([]);

/**
 * The forms made of a request's secrets, each once, and their searches. The redactor makes one when it first
 * makes forms, with `new`, as all it holds per request (see redactor.ts).
 *
 * @internal
 */
export class MadeForms {
  #anywhere = new Set<string>();
  #forms: string[] = [];
  #matcher: FormMatcher | undefined;
  /** The forms folded, searched in the folded views of a text. */
  #folded: string[] = [];
  #foldedSet = new Set<string>();
  #foldedMatcher: FormMatcher | undefined;
  readonly #standaloneForms = new Set<string>();
  #standaloneAdded = false;
  /** The forms of short secrets, found where they stand alone. */
  #standalone = NO_STANDALONE_FORMS;
  /** The base64 and hex forms, made when a text may hold one. */
  #bytes = NO_BYTE_FORMS;
  #longestStandalone = 0;
  #shortest = MIN_SECRET_LENGTH;
  /** Counts the work of making byte forms against the request's budget; false when it is spent. */
  readonly #spendOnBytes: (work: number) => boolean;

  /** @param spendOnBytes - counts the work of making byte forms; false when the budget is spent */
  constructor(spendOnBytes: (work: number) => boolean) {
    this.#spendOnBytes = spendOnBytes;
  }

  /** The longest form of a short secret, and the character that tells whether it stands alone. */
  get longestStandalone(): number {
    return this.#longestStandalone;
  }

  /** The shortest text that can hold a form. */
  get shortest(): number {
    return this.#shortest;
  }

  /** Adds one secret's forms, those not made before; {@link settle} once they are all added. */
  add(forms: SearchedForms): void {
    for (const form of forms.anywhere) {
      if (this.#anywhere.has(form)) continue;
      this.#anywhere.add(form);
      this.#forms.push(form);
    }
    for (const form of forms.folded) {
      if (this.#foldedSet.has(form)) continue;
      this.#foldedSet.add(form);
      this.#folded.push(form);
    }
    for (const form of forms.standalone) {
      if (this.#standaloneForms.has(form)) continue;
      this.#standaloneForms.add(form);
      this.#standaloneAdded = true;
    }
    if (forms.bytes.length > 0) {
      if (this.#bytes === NO_BYTE_FORMS) this.#bytes = new ByteFormSet();
      this.#bytes.add(forms.bytes);
    }
  }

  /** After forms were added: the matchers are made again when next needed. */
  settle(): void {
    this.#matcher = undefined;
    this.#foldedMatcher = undefined;
    if (this.#standaloneAdded) {
      this.#standaloneAdded = false;
      this.#standalone = new StandaloneMatcher([...this.#standaloneForms]);
      this.#longestStandalone = this.#standalone.longest + 2;
      this.#shortest = Math.min(MIN_SECRET_LENGTH, this.#standalone.shortest);
    }
  }

  /** Drops every form: the redactor is over budget and redacts every text whole from now on. */
  drop(): void {
    this.#anywhere = new Set();
    this.#forms = [];
    this.#matcher = undefined;
    this.#folded = [];
    this.#foldedSet = new Set();
    this.#foldedMatcher = undefined;
    this.#bytes = NO_BYTE_FORMS;
  }

  /** Whether no form is made yet: every secret's forms are longer than any text redacted so far. */
  holdsNoForm(): boolean {
    return this.#forms.length === 0 && this.#standalone.isEmpty && this.#bytes === NO_BYTE_FORMS;
  }

  /** Makes the base64 and hex forms not made yet, within the budget; false when it is spent. */
  #makeByteForms(): boolean {
    const work = this.#bytes.make();
    return work === 0 || this.#spendOnBytes(work);
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

  /**
   * Every stretch of `text` a form covers, in the text itself and in each view of it, in order and merged; the
   * whole text when making its byte forms spent the budget.
   */
  ranges(text: string): [number, number][] {
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
   * Where a clipped text must end so that no start of a form, in any view of it, is left at its end; 0 when
   * making its byte forms spent the budget. Every pending secret's forms must be made first.
   */
  cutAt(kept: string): number {
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
}
