import type { CallRequest } from '../simulator/platform-simulator.js';
import { UsageError } from './usage-error.js';

/** A call given on the command line, with the status it is expected to end with, if one was given. */
export interface ParsedCall {
  readonly request: CallRequest;
  /** The status the call must end with (`=> 404`); without it, any status below 400. */
  readonly expectStatus: number | undefined;
}

/**
 * Reads a call given on the command line: `"<METHOD> <path>[?query] [json body] [=> <status>]"`.
 *
 * @param text - the argument
 * @returns the call
 * @throws {@link UsageError} when it does not have that shape or the body is not JSON
 */
export function parseCall(text: string): ParsedCall {
  let rest = text.trim();
  let expectStatus: number | undefined;
  // ` => 404` at the end; an arrow anywhere else (in a path or a JSON body) is left alone.
  const expectation = /\s+=>\s*(\d{3})\s*$/.exec(rest);
  if (expectation) {
    expectStatus = Number(expectation[1]);
    if (expectStatus < 100 || expectStatus > 599)
      throw new UsageError(`"${text}" expects ${expectStatus}, which is not an HTTP status`);
    rest = rest.slice(0, expectation.index);
  }
  const match = /^([A-Za-z]+)\s+(\/\S*)(?:\s+(.+))?$/s.exec(rest);
  if (match?.[1] === undefined || match[2] === undefined)
    throw new UsageError(
      `"${text}" is not "<METHOD> <path> [json] [=> status]", such as "GET /issues/1"`,
    );
  const url = new URL(match[2], 'http://call');
  let body: unknown;
  if (match[3] !== undefined) {
    try {
      body = JSON.parse(match[3]);
    } catch {
      throw new UsageError(`the body of "${match[1]} ${match[2]}" is not valid JSON`);
    }
  }
  return {
    request: {
      method: match[1].toUpperCase(),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      ...(body === undefined ? {} : { body }),
    },
    expectStatus,
  };
}
