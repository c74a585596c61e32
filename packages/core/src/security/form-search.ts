import { htmlView, jsonView, percentView, type TextView } from './text-views.js';

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

/** The views of a text besides itself: one per family of escapes it holds. */
export function viewsOf(text: string): TextView[] {
  const views: TextView[] = [];
  if (text.includes('%') || text.includes('+')) views.push(percentView(text));
  if (text.includes('\\')) views.push(jsonView(text));
  if (text.includes('&')) views.push(htmlView(text));
  return views;
}
