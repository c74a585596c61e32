// What the connector tells the platform once and every operation then follows: its server info (the page cap,
// the time zone) and the pattern of the dates that history and comments exchange, with the conversions
// between that pattern and the tracker's ISO 8601.
import {
  ValidationError,
  formatJavaDate,
  parseJavaDate,
  type PlatformAnswer,
} from '@connector-sdk/core';

/** What server info answers: the most items one page of a list may hold, and the time zone of dates. */
export const SERVER_INFO = {
  timeZone: 'UTC',
  maxResults: 100,
  integrationUserInfo: {
    fieldInternalName: 'username',
    userDataType: 'USERNAME_AS_USER',
  },
} as const satisfies PlatformAnswer<'serverInfo'>;

/**
 * The pattern the issue type declares for revision times and comment dates. Not ISO 8601 (`+0000`, not `Z`):
 * every date goes through the two functions below, never as the tracker wrote it.
 */
export const DATE_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSZ";

/**
 * A tracker instant as the platform reads it: in the declared pattern and the server info's time zone.
 *
 * @param iso - an ISO 8601 instant, as the tracker writes them
 * @returns the date in {@link DATE_FORMAT}
 */
export const toPlatformDate = (iso: string): string =>
  formatJavaDate(Date.parse(iso), DATE_FORMAT, SERVER_INFO.timeZone);

/**
 * A date the platform sent (`since`, `maxTime`, `afterTime`), read in the declared pattern; a 400 naming the
 * parameter when it does not follow it.
 *
 * @param text - the date as sent
 * @param parameter - its name, for the error
 * @returns the instant
 */
export function fromPlatformDate(text: string, parameter: string): Date {
  try {
    return parseJavaDate(text, DATE_FORMAT, SERVER_INFO.timeZone);
  } catch (error) {
    throw new ValidationError(
      `'${parameter}' must follow the pattern ${DATE_FORMAT}`,
      {
        cause: error,
      },
    );
  }
}
