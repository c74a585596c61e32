import {
  DECODED,
  htmlView,
  jsonView,
  percentView,
  flatPercentView,
  quotedPrintableView,
  type TextView,
} from './text-views.js';

// How the redactor searches one text for many forms.

/** Most `forms × characters` searched form by form with `indexOf`; past it, one pass of the automaton. */
export const DIRECT_SEARCH_WORK = 200_000;

/** Every stretch of `text` some form covers, in order; overlapping matches of one form make one range. */
export function searchEach(
  forms: readonly string[],
  text: string,
  found: [number, number][],
): void {
  for (const form of forms) {
    if (form.length > text.length) continue;
    let last: [number, number] | undefined;
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) {
      if (last !== undefined && at <= last[1]) last[1] = at + form.length;
      else found.push((last = [at, at + form.length]));
    }
  }
}

/** The ranges sorted and merged where they overlap. */
export function merge(found: [number, number][]): [number, number][] {
  found.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of found) {
    const last = merged[merged.length - 1];
    if (last !== undefined && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push(range);
  }
  return merged;
}

/** The families of escapes: when a text holds one's escapes, and the view that decodes them. */
const FAMILIES = [
  {
    decoded: DECODED.percent,
    holds: (text: string) => text.includes('%') || text.includes('+'),
    view: percentView,
  },
  // `%25` before two hex digits is either a nested escape or an escaped `%` followed by them: read both ways.
  { decoded: DECODED.percent, holds: holdsEscapedPercent, view: flatPercentView },
  { decoded: DECODED.backslash, holds: (text: string) => text.includes('\\'), view: jsonView },
  { decoded: DECODED.ampersand, holds: (text: string) => text.includes('&'), view: htmlView },
  { decoded: DECODED.equals, holds: holdsQuotedPrintable, view: quotedPrintableView },
] as const;

/** Whether a text holds an escaped `%` (`%25`, in either case) that the percent view reads as a nested escape. */
function holdsEscapedPercent(text: string): boolean {
  for (let at = text.indexOf('%2'); at !== -1; at = text.indexOf('%2', at + 1)) {
    const five = text.charCodeAt(at + 2);
    if (five === 0x35 && isHex(text.charCodeAt(at + 3)) && isHex(text.charCodeAt(at + 4)))
      return true;
  }
  return false;
}

/** Whether a text holds a quoted-printable escape or soft line break (`=3D`, `=\n`): most `=` are neither. */
function holdsQuotedPrintable(text: string): boolean {
  for (let at = text.indexOf('='); at !== -1; at = text.indexOf('=', at + 1)) {
    const next = text.charCodeAt(at + 1);
    if (next === 0x0a || next === 0x0d) return true;
    if (isHex(next) && isHex(text.charCodeAt(at + 2))) return true;
  }
  return false;
}

const isHex = (code: number) =>
  (code >= 0x30 && code <= 0x39) || ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x66);

/**
 * The views of a text besides itself: one per family of escapes it holds, and each view's own views where
 * decoding wrote another escape (ARCHITECTURE.md, D5): one family's escapes written in another's
 * (`\u0026amp;`, `%5C%22`, `\u00252F`, `&#37;2F`), or in its own twice (`&amp;amp;`). Two levels, each only
 * where decoding wrote a family's escape character, so the work stays a small constant times the text.
 */
export function viewsOf(text: string): TextView[] {
  const views: TextView[] = [];
  for (const family of FAMILIES) if (family.holds(text)) views.push(family.view(text));
  const firsts = views.length;
  for (let at = 0; at < firsts; at++) {
    const first = views[at] as TextView;
    for (const family of FAMILIES)
      if ((first.decoded & family.decoded) !== 0)
        views.push(through(first, family.view(first.text)));
  }
  return views;
}

/** A view of a view, read back to the original text: each unit stands for what its outer units stood for. */
function through(outer: TextView, inner: TextView): TextView {
  const units = inner.text.length;
  const from = new Int32Array(units);
  const to = new Int32Array(units);
  for (let i = 0; i < units; i++) {
    from[i] = outer.from[inner.from[i] as number] as number;
    to[i] = outer.to[(inner.to[i] as number) - 1] as number;
  }
  const cut =
    inner.cut < outer.text.length
      ? Math.min(outer.cut, outer.from[inner.cut] as number)
      : outer.cut;
  return { text: inner.text, from, to, cut, decoded: inner.decoded };
}
