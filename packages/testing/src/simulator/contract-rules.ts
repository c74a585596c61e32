import { ErrorBodySchema, ParameterListSchema, type ParameterEntry } from '@connector-sdk/core';
import { FRAMING_HEADER_NAMES, isCredentialName } from '@connector-sdk/core/internal';
import type { WireResponse } from './transport.js';

// These rules restate the contract independently of core's implementation, so the kit can judge it; except
// the names core forbids as session headers and the names it takes for credentials, which are core's by
// definition: the kit judges a connector against them, so it reads core's own lists.

/** RFC 9110 §5.6.2 token characters. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab: what every HTTP stack carries unchanged. */
const FIELD_VALUE = /^[\x20-\x7e\t]+$/;
/** Headers that always carry a credential, and values that look like one: these must be marked sensitive. */
const CREDENTIAL_HEADER = /^(?:authorization|proxy-authorization|cookie)$/i;
const CREDENTIAL_VALUE = /^(?:bearer|basic|digest|token)\s+\S/i;
/** Common proxies and servers refuse request headers beyond 8 KiB in total. */
export const SESSION_HEADER_BUDGET = 8192;

/**
 * Whether a key names a credential, so the simulator treats its value as a secret: core's rule.
 *
 * @param key - a parameter key or header name
 * @internal
 */
export function isCredentialKey(key: string): boolean {
  return isCredentialName(key);
}

/** How the wait after a rate-limit 403 is announced. */
export interface WaitHeader {
  /** Header name, any case. */
  readonly name: string;
  /** Unit of its value. */
  readonly unit: 'seconds' | 'milliseconds';
}

/**
 * Reads the wait announced by a 403, in milliseconds, or `undefined` when there is no valid wait header.
 *
 * @param response - a 403 response
 * @param header - where the wait is announced
 * @internal
 */
export function readWaitMs(response: WireResponse, header: WaitHeader): number | undefined {
  const raw = response.headers[header.name.toLowerCase()];
  if (raw === undefined || !/^\d+$/.test(raw.trim())) return undefined;
  const value = Number(raw.trim());
  return header.unit === 'seconds' ? value * 1000 : value;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * What is wrong with the entries an initialize answered, as header-replayable session parameters.
 *
 * @param entries - the initialize answer
 * @returns one sentence per problem, naming the key but never a value
 * @internal
 */
export function sessionProblems(entries: readonly ParameterEntry[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  let bytes = 0;
  for (const { key, value, sensitive } of entries) {
    const lower = key.toLowerCase();
    if (!TOKEN.test(key)) problems.push(`key "${key}" is not a valid HTTP header name`);
    else if (FRAMING_HEADER_NAMES.has(lower))
      problems.push(`key "${key}" is a framing or hop-by-hop header`);
    if (seen.has(lower)) problems.push(`key "${key}" appears twice (header names ignore case)`);
    seen.add(lower);
    if (!FIELD_VALUE.test(value)) {
      problems.push(
        `the value of "${key}" is empty or holds characters a header cannot carry (CR, LF, NUL, non-ASCII)`,
      );
    } else if (value.trim() !== value) {
      problems.push(`the value of "${key}" has leading or trailing whitespace, which HTTP drops`);
    }
    if (!sensitive && (CREDENTIAL_HEADER.test(key) || CREDENTIAL_VALUE.test(value)))
      problems.push(`"${key}" carries a credential but is not marked sensitive`);
    bytes += key.length + value.length + 4;
  }
  if (bytes > SESSION_HEADER_BUDGET) {
    problems.push(
      `the session takes ${bytes} bytes as headers, over the ${SESSION_HEADER_BUDGET}-byte budget`,
    );
  }
  return problems;
}

/**
 * What a response answers, as the contract judges it: initialize, a later operation (which may also answer 204
 * without a body, or 200 with text), or another call (discover, cleanup).
 *
 * @internal
 */
export type Answered = 'initialize' | 'operation' | 'other';

/**
 * What is wrong with a response under the contract: content type, JSON, the error-body shape, the status
 * class, the parameter list of a successful initialize, and the wait header of a rate-limit 403.
 *
 * @param response - what the connector answered
 * @param answered - what it answers
 * @param waitHeader - where a rate-limit wait is announced
 * @returns one sentence per problem; empty when the response keeps the contract
 * @internal
 */
export function responseProblems(
  response: WireResponse,
  answered: Answered,
  waitHeader: WaitHeader,
): string[] {
  const operation = answered === 'operation';
  const problems: string[] = [];
  const { status } = response;
  const contentType = response.headers['content-type'] ?? '';
  // A later operation may answer 204 with no body (the platform's deletes), or a string as text.
  if (operation && status === 204) return response.text === '' ? [] : ['a 204 answer has a body'];
  if (operation && status === 200 && /^text\/plain\b/i.test(contentType)) return [];
  if (!/^application\/json\b/i.test(contentType))
    problems.push(`content-type is "${contentType}", not application/json`);
  const parsed = parseJson(response.text);
  if (!parsed.ok) return [...problems, 'the body is not JSON'];
  if (status >= 200 && status < 300) {
    if (answered === 'initialize') {
      if (status !== 200) problems.push(`initialize answered ${status}; the contract says 200`);
      const list = ParameterListSchema.safeParse(parsed.value);
      if (!list.success) {
        problems.push(
          'the initialize answer is not a list of { key, value, sensitive } entries (all three required)',
        );
      } else {
        problems.push(...sessionProblems(list.data));
      }
    }
    return problems;
  }
  if (status < 400 || status > 599) {
    return [...problems, `status ${status} is neither a success nor an error the contract knows`];
  }
  const body = ErrorBodySchema.safeParse(parsed.value);
  if (!body.success) {
    problems.push(
      'the error body is not { "errors": { "code": string, "message": string, "detail"?: string } }',
    );
  } else if (body.data.errors.code === 'RATE_LIMITED' || status === 403) {
    const wait = response.headers[waitHeader.name.toLowerCase()];
    const waitMs = readWaitMs(response, waitHeader);
    if (wait !== undefined && (waitMs === undefined || waitMs <= 0)) {
      problems.push(
        `the ${waitHeader.name} header "${wait}" is not a positive whole number of ${waitHeader.unit}`,
      );
    }
    if (body.data.errors.code === 'RATE_LIMITED' && wait === undefined)
      problems.push(`a rate-limit 403 has no ${waitHeader.name} header`);
    if (body.data.errors.code === 'RATE_LIMITED' && status !== 403)
      problems.push(`a rate limit answered ${status}; the contract says 403 with a wait header`);
  }
  return problems;
}
