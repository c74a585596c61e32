import { ViewWriter, type TextView } from './text-views.js';

// The spellings of a secret that change its characters rather than escape them: another case (a UUID entered
// upper-case that an end system echoes lower-case, as Java's and .NET's `toString()` write it), full-width or
// other compatibility forms (NFKC), NFD, zero-width and soft-hyphen characters inside, a line break inside a
// token that a wrapping writer put there. Listing each spelling of a secret cannot cover their mixes; one
// folded view of the text, searched for the secret folded the same way, finds them all (Unicode's
// NFKC_Casefold, https://www.unicode.org/reports/tr44/#NFKC_Casefold, is the same idea).

/** Characters a renderer does not show: dropped (U+200B, U+00AD, U+2060, U+FEFF, variation selectors…). */
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
/** Combining marks: normalised together with the character they follow. */
const MARK = /^\p{M}$/u;
/** Whether a text needs more than `toLowerCase()` to fold: a character past ASCII, or a line break. */
// eslint-disable-next-line no-control-regex
const NEEDS_FOLDING = /[^\x00-\x09\x0b\x0c\x0e-\x7f]/;

/** What one code point folds to: '' when it is dropped. Cached, up to a bound (a text of 64 KiB of distinct code points must not grow it). */
const FOLDED = new Map<number, string>();
const MAX_CACHED = 4096;
const MARKS = new Map<number, boolean>();

const BREAK_OR_INDENT = (unit: number) =>
  unit === 0x0a || unit === 0x0d || unit === 0x20 || unit === 0x09;

const isLineBreak = (point: number) =>
  point === 0x0a || point === 0x0d || point === 0x85 || point === 0x2028 || point === 0x2029;

/** A character's simple case folding, one code point to one: lower case of its upper case where that is one. */
function caseFold(char: string): string {
  const folded = char.toUpperCase().toLowerCase();
  if (folded.length === char.length || [...folded].length === 1) return folded;
  const lower = char.toLowerCase();
  return [...lower].length === 1 ? lower : char;
}

/** What a code point folds to on its own: dropped, or NFKC then case folding of each code point. */
function foldPoint(point: number): string {
  let folded = FOLDED.get(point);
  if (folded !== undefined) return folded;
  const char = String.fromCodePoint(point);
  folded = isLineBreak(point) || IGNORABLE.test(char) ? '' : foldText(char.normalize('NFKC'));
  if (FOLDED.size >= MAX_CACHED) FOLDED.clear();
  FOLDED.set(point, folded);
  return folded;
}

/** Case folding of each code point of an NFKC text, ignorable characters dropped. */
function foldText(normalized: string): string {
  let out = '';
  for (const char of normalized)
    if (!IGNORABLE.test(char))
      out += char.length === 1 && char < '\x80' ? char.toLowerCase() : caseFold(char);
  return out;
}

function isMark(point: number): boolean {
  if (point < 0x300) return false;
  let mark = MARKS.get(point);
  if (mark === undefined) {
    mark = MARK.test(String.fromCodePoint(point));
    if (MARKS.size >= MAX_CACHED) MARKS.clear();
    MARKS.set(point, mark);
  }
  return mark;
}

/**
 * The text as the redactor compares it with a secret whatever its spelling: NFKC, then simple case folding,
 * characters that do not show (default-ignorable code points) and line breaks dropped, with the spaces and tabs
 * that indent the next line. Each character and the combining marks that follow it are normalised together.
 *
 * @param text - any text
 * @returns the folded view; a string when folding kept every character where it was (an ASCII text without
 *   line breaks, lower-cased), which is the common case and needs no map back to the text
 * @internal
 */
export function foldedView(text: string): TextView | string {
  if (!NEEDS_FOLDING.test(text)) return text.toLowerCase();
  const out = new ViewWriter(text.length);
  /**
   * Writes what the characters from `from` to `to` fold to, each unit standing for all of them, with room left
   * for the rest of the text (a character may fold to several: `ﬃ`, `㎏`).
   */
  const write = (folded: string, from: number, to: number): void => {
    if (folded.length > to - from) out.reserve(folded.length + text.length - to);
    for (let k = 0; k < folded.length; k++) out.put(folded.charCodeAt(k), from, to);
  };
  let i = 0;
  while (i < text.length) {
    const point = text.codePointAt(i) as number;
    let end = i + (point > 0xffff ? 2 : 1);
    let next = text.codePointAt(end);
    if (next !== undefined && isMark(next)) {
      // A character and its marks: NFD (`e` and U+0301) reads as NFC (`é`).
      while (next !== undefined && isMark(next)) {
        end += next > 0xffff ? 2 : 1;
        next = text.codePointAt(end);
      }
      write(foldText(text.slice(i, end).normalize('NFKC')), i, end);
      i = end;
      continue;
    }
    if (point < 0x80) {
      if (point === 0x0a || point === 0x0d) {
        // A line break and the indent of the line it starts: a token wrapped there reads whole.
        for (let unit = text.charCodeAt(end); BREAK_OR_INDENT(unit); unit = text.charCodeAt(++end));
        i = end;
        continue;
      }
      out.put(point >= 0x41 && point <= 0x5a ? point + 0x20 : point, i, end);
    } else write(foldPoint(point), i, end);
    i = end;
  }
  return out.view(text.length);
}

/**
 * A secret's form folded as {@link foldedView} folds a text.
 *
 * @param form - a form of a secret
 * @returns the form folded
 * @internal
 */
export function foldedForm(form: string): string {
  const view = foldedView(form);
  return typeof view === 'string' ? view : view.text;
}
