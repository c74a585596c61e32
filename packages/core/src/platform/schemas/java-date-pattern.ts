/**
 * Reading a Java-style date pattern into the pieces `formatJavaDate` and `parseJavaDate` work with: the letters
 * and widths of `java.time.format.DateTimeFormatter` that date patterns of the platform's metadata use, each
 * refused where java.time refuses it ("Too many pattern letters") or writes something not supported here
 * (narrow and localized text, optional sections). Written here, not taken from a library: see java-date.ts.
 */

/** One piece of a compiled pattern: a field letter repeated `width` times, or literal text. @internal */
export type Piece = { readonly letter: string; readonly width: number } | { readonly text: string };

/** The most times java.time takes each letter (more is its "Too many pattern letters"). */
const MAX_WIDTH: Readonly<Record<string, number>> = {
  y: 19,
  u: 19,
  M: 5,
  d: 2,
  H: 2,
  h: 2,
  a: 1,
  m: 2,
  s: 2,
  S: 9,
  E: 5,
  Z: 5,
  X: 5,
  x: 5,
};
/** Widths java.time takes that write text not supported here: narrow names, the localized offset. */
const UNSUPPORTED_WIDTH: Readonly<Record<string, number>> = { M: 5, E: 5, Z: 4 };

/** @internal */
export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** @internal */
export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * The pieces of a pattern.
 *
 * @throws TypeError naming what cannot be used
 * @internal
 */
export function compilePattern(pattern: string): Piece[] {
  if (typeof pattern !== 'string' || pattern === '' || pattern.length > 100)
    throw new TypeError('A date pattern is 1 to 100 characters');
  const pieces: Piece[] = [];
  for (let i = 0; i < pattern.length;) {
    const char = pattern[i] as string;
    if (char === "'") {
      // 'quoted text', with '' for a quote.
      if (pattern[i + 1] === "'") {
        pieces.push({ text: "'" });
        i += 2;
        continue;
      }
      let text = '';
      let j = i + 1;
      for (; j < pattern.length; j++) {
        if (pattern[j] === "'") {
          if (pattern[j + 1] === "'") {
            text += "'";
            j++;
          } else break;
        } else text += pattern[j];
      }
      if (j >= pattern.length)
        throw new TypeError(`The date pattern "${pattern}" has an unclosed quote`);
      pieces.push({ text });
      i = j + 1;
    } else if (/[A-Za-z]/.test(char)) {
      const max = MAX_WIDTH[char];
      if (max === undefined)
        throw new TypeError(
          `The date pattern "${pattern}" uses "${char}", which is not supported here (y M d H h a m s S E Z X x and quoted text are)`,
        );
      let width = 1;
      while (pattern[i + width] === char) width++;
      if (width > max)
        throw new TypeError(`The date pattern "${pattern}" has too many pattern letters: ${char}`);
      if (UNSUPPORTED_WIDTH[char] === width)
        throw new TypeError(
          `The date pattern "${pattern}" uses ${char.repeat(width)}, which is not supported here`,
        );
      pieces.push({ letter: char, width });
      i += width;
    } else if (char === '[' || char === ']') {
      throw new TypeError(
        `The date pattern "${pattern}" has an optional section ("${char}"), which is not supported here`,
      );
    } else if (char === '#' || char === '{' || char === '}') {
      throw new TypeError(
        `The date pattern "${pattern}" uses "${char}", which java.time keeps reserved`,
      );
    } else {
      pieces.push({ text: char });
      i++;
    }
  }
  return pieces;
}
