import { describe, expect, it } from 'vitest';
import { formatJavaDate, javaDatePatternProblem, parseJavaDate } from './java-date.js';

const ISO_Z = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";
const winter = Date.UTC(2026, 10, 25, 9, 30, 5, 7); // 2026-11-25T09:30:05.007Z
const summer = Date.UTC(2026, 6, 1, 22, 0, 0, 0); // 2026-07-01T22:00:00.000Z

describe('Java-style date patterns', () => {
  it.each([
    [winter, ISO_Z, 'UTC', '2026-11-25T09:30:05.007+0000'],
    [winter, ISO_Z, 'Europe/Berlin', '2026-11-25T10:30:05.007+0100'],
    [summer, ISO_Z, 'Europe/Berlin', '2026-07-02T00:00:00.000+0200'],
    [winter, "yyyy-MM-dd'T'HH:mm:ssXXX", 'UTC', '2026-11-25T09:30:05Z'],
    [winter, "yyyy-MM-dd'T'HH:mm:ssXXX", 'Asia/Kolkata', '2026-11-25T15:00:05+05:30'],
    [winter, 'dd MMM yyyy hh:mm a', 'America/New_York', '25 Nov 2026 04:30 AM'],
    [winter, "EEEE, d MMMM yy 'at' H'h'", 'UTC', 'Wednesday, 25 November 26 at 9h'],
    [winter, "yyyy-MM-dd'T'HH:mm:ss.SSSSSSxx", 'UTC', '2026-11-25T09:30:05.007000+0000'],
  ])('writes %i as %s in %s: %s', (instant, pattern, zone, text) => {
    expect(formatJavaDate(instant, pattern, zone)).toBe(text);
  });

  it.each([
    ['2026-11-25T10:30:05.007+0100', ISO_Z, 'UTC', winter],
    ['2026-11-25T09:30:05Z', "yyyy-MM-dd'T'HH:mm:ssXXX", 'UTC', winter - 7],
    ['2026-11-25T15:00:05+05:30', "yyyy-MM-dd'T'HH:mm:ssXXX", 'UTC', winter - 7],
    // No offset in the pattern: a local time of the server info's zone, summer or winter.
    ['2026-11-25 10:30:05', 'yyyy-MM-dd HH:mm:ss', 'Europe/Berlin', winter - 7],
    ['2026-07-02 00:00:00', 'yyyy-MM-dd HH:mm:ss', 'Europe/Berlin', summer],
    ['25 Nov 2026 04:30 AM', 'dd MMM yyyy hh:mm a', 'America/New_York', winter - 5_007],
    ['20261125093005', 'yyyyMMddHHmmss', 'UTC', winter - 7],
  ])('reads %s (%s, %s)', (text, pattern, zone, instant) => {
    expect(parseJavaDate(text, pattern, zone).getTime()).toBe(instant);
  });

  it('reads back what it writes', () => {
    for (const zone of ['UTC', 'Europe/Berlin', 'America/Los_Angeles', 'Australia/Adelaide'])
      for (const instant of [winter, summer])
        expect(parseJavaDate(formatJavaDate(instant, ISO_Z, zone), ISO_Z, zone).getTime()).toBe(
          instant,
        );
  });

  it.each([
    ['2026-02-30 10:00', 'yyyy-MM-dd HH:mm'],
    ['2026-11-25 24:00', 'yyyy-MM-dd HH:mm'],
    ['2026-11-25', 'yyyy-MM-dd HH:mm'],
    ['2026-11-25 10:00 extra', 'yyyy-MM-dd HH:mm'],
    ['25/11/2026', 'yyyy-MM-dd'],
  ])('refuses %s for %s, naming the pattern', (text, pattern) => {
    expect(() => parseJavaDate(text, pattern)).toThrow(
      `does not follow the date pattern "${pattern}"`,
    );
  });

  it('names what it cannot use in a pattern', () => {
    expect(javaDatePatternProblem(ISO_Z)).toBeUndefined();
    expect(javaDatePatternProblem('yyyy-MM-dd QQQ')).toContain(
      'uses "Q", which is not supported here',
    );
    expect(javaDatePatternProblem("yyyy 'T")).toContain('unclosed quote');
    expect(() => formatJavaDate(winter, 'yyyy zzz')).toThrow('uses "z"');
  });
  // Where java.time's DateTimeFormatter (and js-joda, its port) writes another text or refuses the pattern, found
  // by comparing every letter at widths 1 to 6.
  it.each([
    [winter, "yyyy-MM-dd'T'HH:mm:ssZZZZZ", 'UTC', '2026-11-25T09:30:05Z'],
    [winter, "yyyy-MM-dd'T'HH:mm:ssZZZZZ", 'Asia/Kolkata', '2026-11-25T15:00:05+05:30'],
    [winter, 'XXXX', 'Europe/Berlin', '+0100'],
    [winter, 'XXXX', 'UTC', 'Z'],
    [winter, 'xxxx', 'UTC', '+0000'],
    [winter, 'xxxxx', 'Asia/Kolkata', '+05:30'],
  ])('writes %i as java.time does in %s, %s: %s', (instant, pattern, zone, text) => {
    expect(formatJavaDate(instant, pattern, zone)).toBe(text);
  });

  it('reads the Z that ZZZZZ writes for UTC', () => {
    expect(parseJavaDate('2026-11-25T09:30:05Z', "yyyy-MM-dd'T'HH:mm:ssZZZZZ").getTime()).toBe(
      winter - 7,
    );
  });

  it.each([
    ['HHH', 'too many pattern letters'],
    ['yyyy-MM-ddd', 'too many pattern letters'],
    ['hh:mm aa', 'too many pattern letters'],
    ['MMMMMM', 'too many pattern letters'],
    ['ZZZZZZ', 'too many pattern letters'],
    ['ZZZZ', 'not supported here'],
    ['MMMMM', 'not supported here'],
    ['yyyy-MM-dd[ HH:mm]', 'optional section'],
    ['yyyy #', 'reserved'],
    ['yyyy {', 'reserved'],
  ])(
    'refuses %s, as java.time refuses it or writes what is not supported here',
    (pattern, problem) => {
      expect(javaDatePatternProblem(pattern)).toContain(problem);
    },
  );
});
