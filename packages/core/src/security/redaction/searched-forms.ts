import {
  MIN_SECRET_LENGTH,
  byteForms,
  credentialParts,
  shortestByteForm,
  urlKept,
  wellFormed,
} from './secret-parts.js';
import { percentView } from './text-views.js';
import { foldedForm } from './folded-view.js';

/**
 * What the redactor searches the views of a text for, for one secret (ARCHITECTURE.md, D5): each part of it (the
 * value, a `Bearer` token, a `Basic` password, a cookie's value) as it is, as the URL parser keeps it in a URL,
 * and as the percent view reads each of those. Escapes are decoded in the text, not spelled out here, so the
 * number of forms does not depend on which characters the secret holds: a few per part, each at most as long as
 * the part.
 *
 * - `anywhere`: forms of at least {@link MIN_SECRET_LENGTH} characters, replaced wherever they occur.
 * - `standalone`: shorter forms (of a PIN, or of a part that decodes short), replaced where they stand alone.
 * - `folded`: the `anywhere` forms folded (folded-view.ts), searched in the folded views of a text: a secret
 *   in another case, in full-width or NFD characters, with zero-width characters or line breaks inside.
 * - `bytes`: the parts whose base64 and hex forms count, made only when a text may hold them.
 *
 * A part of at least {@link MIN_SECRET_LENGTH} characters also counts in lower and upper case
 * (`toLowerCase()`, `toUpperCase()`), which escapes then write as they write the part; a shorter one counts only
 * as written, so that a PIN in another case does not blank out ordinary words.
 *
 * @internal
 */
export interface SearchedForms {
  readonly anywhere: readonly string[];
  readonly standalone: readonly string[];
  readonly folded: readonly string[];
  readonly bytes: readonly string[];
  /** How many characters making them wrote: what they cost. */
  readonly work: number;
}

/**
 * A part as every view reads it: as it is (the text, and the JSON and HTML views, which decode exactly what
 * their encoders escape, and the percent view of `encodeURIComponent`'s or `URLSearchParams`' form); and as
 * the percent view reads a text that holds it with its own `%XX` and `+` left as they are, as the URL parser
 * leaves them in a path.
 */
function partForms(part: string, forms: Set<string>): void {
  const usv = wellFormed(part);
  if (usv !== part) forms.add(part);
  const cases =
    part.length >= MIN_SECRET_LENGTH ? [usv, usv.toLowerCase(), usv.toUpperCase()] : [usv];
  for (const spelled of new Set(cases))
    for (const kept of urlKept(spelled)) {
      forms.add(kept);
      if (kept.includes('%') || kept.includes('+')) forms.add(percentView(kept).text);
    }
}

/**
 * The forms the redactor searches for one secret.
 *
 * @param value - a secret
 * @returns its forms, each once
 * @internal
 */
export function searchedForms(value: string): SearchedForms {
  const anywhere = new Set<string>();
  const standalone = new Set<string>();
  const folded = new Set<string>();
  const bytes: string[] = [];
  let work = 0;
  for (const part of credentialParts(value)) {
    const forms = new Set<string>();
    partForms(part, forms);
    for (const form of forms) {
      work += form.length;
      // A form under four characters, also of a longer part (`%41%42` reads `AB`), only where it stands alone.
      if (form.length >= MIN_SECRET_LENGTH) {
        anywhere.add(form);
        const fold = foldedForm(form);
        // Folding may drop characters: what is left must still be long enough to matter.
        if (fold.length >= MIN_SECRET_LENGTH && !folded.has(fold)) {
          folded.add(fold);
          work += fold.length;
        }
      } else if (form !== '') standalone.add(form);
    }
    // Base64 and hex of a short value are a handful of characters of noise.
    if (part.length >= MIN_SECRET_LENGTH) bytes.push(part);
  }
  return {
    anywhere: [...anywhere],
    standalone: [...standalone],
    folded: [...folded],
    bytes,
    work,
  };
}

/**
 * The base64 and hex forms of the parts {@link searchedForms} named, and what making them cost.
 *
 * @internal
 */
export function searchedByteForms(parts: readonly string[]): { forms: string[]; work: number } {
  const forms: string[] = [];
  let work = 0;
  for (const part of parts) {
    for (const form of byteForms(part)) {
      work += form.length;
      if (form.length >= MIN_SECRET_LENGTH) forms.push(form);
    }
  }
  return { forms, work };
}

/**
 * The shortest base64 or hex form of any of these parts: a text without a run of base64 characters at least
 * this long cannot hold one.
 *
 * @internal
 */
export function shortestByteFormOf(parts: readonly string[]): number {
  let shortest = Infinity;
  for (const part of parts)
    shortest = Math.min(shortest, shortestByteForm(Buffer.byteLength(part, 'utf8')));
  return Math.max(shortest, MIN_SECRET_LENGTH);
}
