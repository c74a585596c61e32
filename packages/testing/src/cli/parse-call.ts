import type { CallRequest } from '../platform-simulator.js';
import { UsageError } from './usage-error.js';

/**
 * Reads a call given on the command line: `"<METHOD> <path>[?query] [json body]"`.
 *
 * @param text - the argument
 * @returns the call
 * @throws {@link UsageError} when it does not have that shape or the body is not JSON
 */
export function parseCall(text: string): CallRequest {
  const match = /^([A-Za-z]+)\s+(\/\S*)(?:\s+(.+))?$/s.exec(text.trim());
  if (match?.[1] === undefined || match[2] === undefined)
    throw new UsageError(`"${text}" is not "<METHOD> <path> [json]", such as "GET /issues/1"`);
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
    method: match[1].toUpperCase(),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    ...(body === undefined ? {} : { body }),
  };
}
