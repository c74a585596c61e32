/**
 * Java-style date patterns (`yyyy-MM-dd'T'HH:mm:ss.SSSZ`), as the platform's metadata declares them: the
 * connector says in which pattern it writes dates, and the platform sends dates (search values, `afterTime`) in
 * that pattern. This is the subset of `java.time.format.DateTimeFormatter` such patterns use, written here
 * because the libraries that do it cost too much where these functions run (ARCHITECTURE.md, D18): they are
 * synchronous, so a library would load with core. `@js-joda/core` (a port of java.time) writes no month or day
 * names without `@js-joda/locale` and its data, knows no IANA zone without `@js-joda/timezone`, and alone costs
 * about as much to import as zod; `date-fns` with `@date-fns/tz` needs a pattern translation and costs about 0.7
 * of zod. A pattern java.time refuses, or writes in a way this subset does not, is refused (java-date.test.ts
 * holds what comparing them found).
 */
import { compilePattern, DAYS, MONTHS } from './java-date-pattern.js';

/**
 * Checks a Java-style date pattern, as the entity type's `dateFormat` or the search's `dateTimeFormat` would
 * declare it.
 *
 * @param pattern - such as `yyyy-MM-dd'T'HH:mm:ss.SSSZ`
 * @returns why it cannot be used, or `undefined` when it can
 * @example
 * ```ts
 * import { javaDatePatternProblem } from '@connector-sdk/core';
 *
 * javaDatePatternProblem("yyyy-MM-dd'T'HH:mm:ss.SSSZ"); // undefined: usable
 * ```
 */
export function javaDatePatternProblem(pattern: string): string | undefined {
  try {
    compilePattern(pattern);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  weekday: number;
}

/** The offset from UTC of `timeZone` at `instant`, in minutes (`Europe/Berlin` in summer: 120). */
function offsetMinutes(instant: number, timeZone: string): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(new Date(instant))
    .find((part) => part.type === 'timeZoneName')?.value;
  const match = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name ?? '');
  if (match === null) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '-' ? -minutes : minutes;
}

function partsAt(instant: number, offset: number): Parts {
  const shifted = new Date(instant + offset * 60_000);
  return {
    year: shifted.getUTCFullYear(),
    month: shifted.getUTCMonth() + 1,
    day: shifted.getUTCDate(),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
    second: shifted.getUTCSeconds(),
    millisecond: shifted.getUTCMilliseconds(),
    weekday: shifted.getUTCDay(),
  };
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** An offset as java.time writes it: `Z` and `ZZZZZ`, `X` and `x` by width; `X` and `ZZZZZ` write UTC as `Z`. */
function formatOffset(offset: number, letter: string, width: number): string {
  if (offset === 0 && (letter === 'X' || (letter === 'Z' && width === 5))) return 'Z';
  const sign = offset < 0 ? '-' : '+';
  const hours = pad(Math.floor(Math.abs(offset) / 60), 2);
  const minutes = pad(Math.abs(offset) % 60, 2);
  if (letter === 'Z')
    return width === 5 ? `${sign}${hours}:${minutes}` : `${sign}${hours}${minutes}`;
  if (width === 1) return minutes === '00' ? `${sign}${hours}` : `${sign}${hours}${minutes}`;
  return width === 3 || width === 5 ? `${sign}${hours}:${minutes}` : `${sign}${hours}${minutes}`;
}

/**
 * Writes an instant in a Java-style pattern, in a time zone (the server info's `timeZone`).
 *
 * @param instant - a `Date`, or milliseconds since the epoch
 * @param pattern - such as `yyyy-MM-dd'T'HH:mm:ss.SSSZ`
 * @param timeZone - an IANA zone such as `Europe/Berlin` @default 'UTC'
 * @returns the text
 * @throws TypeError for a pattern it cannot use, or an invalid date
 * @example
 * ```ts
 * import { formatJavaDate } from '@connector-sdk/core';
 * const instant = Date.UTC(2026, 10, 25, 9, 30);
 * formatJavaDate(instant, "yyyy-MM-dd'T'HH:mm:ss.SSSZ", 'Europe/Berlin');
 * // '2026-11-25T10:30:00.000+0100'
 * ```
 */
export function formatJavaDate(instant: Date | number, pattern: string, timeZone = 'UTC'): string {
  const time = typeof instant === 'number' ? instant : instant.getTime();
  if (!Number.isFinite(time)) throw new TypeError('Not a valid date');
  const offset = offsetMinutes(time, timeZone);
  const parts = partsAt(time, offset);
  return compilePattern(pattern)
    .map((piece) => {
      if ('text' in piece) return piece.text;
      const { letter, width } = piece;
      switch (letter) {
        case 'y':
        case 'u':
          return width === 2 ? pad(parts.year % 100, 2) : pad(parts.year, width);
        case 'M':
          return width >= 4
            ? (MONTHS[parts.month - 1] as string)
            : width === 3
              ? (MONTHS[parts.month - 1] as string).slice(0, 3)
              : pad(parts.month, width);
        case 'd':
          return pad(parts.day, width);
        case 'H':
          return pad(parts.hour, width);
        case 'h':
          return pad(parts.hour % 12 === 0 ? 12 : parts.hour % 12, width);
        case 'a':
          return parts.hour < 12 ? 'AM' : 'PM';
        case 'm':
          return pad(parts.minute, width);
        case 's':
          return pad(parts.second, width);
        case 'S':
          return pad(parts.millisecond, 3).padEnd(width, '0').slice(0, width);
        case 'E':
          return width >= 4
            ? (DAYS[parts.weekday] as string)
            : (DAYS[parts.weekday] as string).slice(0, 3);
        default:
          return formatOffset(offset, letter, width);
      }
    })
    .join('');
}

/**
 * Reads a date the platform sent in a Java-style pattern. Without an offset in the pattern, the text is a
 * local time of `timeZone` (the server info's).
 *
 * @param text - such as `2026-11-25T10:30:00.000+0100`
 * @param pattern - the pattern the connector declared
 * @param timeZone - an IANA zone such as `Europe/Berlin` @default 'UTC'
 * @returns the instant
 * @throws TypeError naming the pattern when the text does not follow it
 * @example
 * ```ts
 * import { parseJavaDate } from '@connector-sdk/core';
 * parseJavaDate('2026-11-25 10:30', 'yyyy-MM-dd HH:mm', 'Europe/Berlin');
 * // 2026-11-25T09:30:00.000Z
 * ```
 */
export function parseJavaDate(text: string, pattern: string, timeZone = 'UTC'): Date {
  const fail = () =>
    new TypeError(`"${String(text).slice(0, 60)}" does not follow the date pattern "${pattern}"`);
  if (typeof text !== 'string' || text.length > 200) throw fail();
  const parts: Parts = {
    year: 1970,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
    weekday: 0,
  };
  let offset: number | undefined;
  let pm: boolean | undefined;
  let at = 0;
  const digits = (min: number, max: number) => {
    const match = new RegExp(`^\\d{${min},${max}}`).exec(text.slice(at));
    if (match === null) throw fail();
    at += match[0].length;
    return match[0];
  };
  const pieces = compilePattern(pattern);
  for (const [index, piece] of pieces.entries()) {
    if ('text' in piece) {
      if (!text.startsWith(piece.text, at)) throw fail();
      at += piece.text.length;
      continue;
    }
    const { letter, width } = piece;
    const fixed = (value: string) => Number(value);
    switch (letter) {
      case 'y':
      case 'u':
        // A year runs on to the next non-digit, unless another field follows at once (`yyyyMMdd`).
        parts.year =
          width === 2
            ? 2000 + fixed(digits(2, 2))
            : fixed(digits(width, 'letter' in (pieces[index + 1] ?? { text: '' }) ? width : 9));
        break;
      case 'M':
        if (width >= 3) {
          const names = width >= 4 ? MONTHS : MONTHS.map((month) => month.slice(0, 3));
          const index = names.findIndex((name) => text.startsWith(name, at));
          if (index === -1) throw fail();
          parts.month = index + 1;
          at += (names[index] as string).length;
        } else parts.month = fixed(digits(width, 2));
        break;
      case 'd':
        parts.day = fixed(digits(width, 2));
        break;
      case 'H':
      case 'h':
        parts.hour = fixed(digits(width, 2));
        break;
      case 'a':
        if (text.startsWith('AM', at)) pm = false;
        else if (text.startsWith('PM', at)) pm = true;
        else throw fail();
        at += 2;
        break;
      case 'm':
        parts.minute = fixed(digits(width, 2));
        break;
      case 's':
        parts.second = fixed(digits(width, 2));
        break;
      case 'S':
        parts.millisecond = Math.floor(fixed(digits(width, width).padEnd(3, '0').slice(0, 3)));
        break;
      case 'E': {
        const names = width >= 4 ? DAYS : DAYS.map((day) => day.slice(0, 3));
        const name = names.find((day) => text.startsWith(day, at));
        if (name === undefined) throw fail();
        at += name.length;
        break;
      }
      default: {
        if (text[at] === 'Z' && (letter === 'X' || (letter === 'Z' && width === 5))) {
          offset = 0;
          at++;
          break;
        }
        const match = /^([+-])(\d{2}):?(\d{2})?/.exec(text.slice(at));
        if (match === null) throw fail();
        at += match[0].length;
        const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
        offset = match[1] === '-' ? -minutes : minutes;
      }
    }
  }
  if (at !== text.length) throw fail();
  if (pm !== undefined) parts.hour = (parts.hour % 12) + (pm ? 12 : 0);
  const local = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
    parts.millisecond,
  );
  const check = new Date(local);
  if (
    check.getUTCFullYear() !== parts.year ||
    check.getUTCMonth() !== parts.month - 1 ||
    check.getUTCDate() !== parts.day ||
    parts.hour > 23 ||
    parts.minute > 59 ||
    parts.second > 59
  )
    throw fail();
  if (offset !== undefined) return new Date(local - offset * 60_000);
  // A local time of the zone: its offset at that time (looked up twice, for the day the clocks change).
  let instant = local - offsetMinutes(local, timeZone) * 60_000;
  instant = local - offsetMinutes(instant, timeZone) * 60_000;
  return new Date(instant);
}
