import { SecretSet } from '../../secrets/secret-forms.js';
import type {
  CassetteFile,
  CassetteHeaders,
  CassetteRequest,
  CassetteResponse,
} from '../cassette-file.js';
import {
  URL_HEADER,
  credentialPairs,
  credentialSpans,
  isCredentialName,
  isFormText,
} from './secret-units.js';

// The proof a cassette is written only after, as it is committed beside the code: its text searched for every secret the recording knew,
// in every form the kit's leak checks know; and, whatever secrets are known (a committed cassette read in CI),
// every place that holds a credential by its name: such a header's credential, a JSON or form field, a query
// parameter of the URL or a `Location` named like one (whatever its case and separators).

const ONLY_PLACEHOLDERS = /^(\s*\{\{secret:\d+\}\}\s*)*$/;

/** A request as a leak's place names it: its method and path, masked. */
function shownRequest(request: CassetteRequest, mask: SecretSet): string {
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // Not a URL: named as it is, masked.
  }
  return `${request.method} ${mask.mask(path)}`;
}

/** The credential-named pairs of a URL or form-encoded text that hold anything but placeholders. */
function pairLeaks(text: string, place: string): string[] {
  return credentialPairs(text).some(({ value }) => !ONLY_PLACEHOLDERS.test(value)) ? [place] : [];
}

function headerLeaks(headers: CassetteHeaders, side: string): string[] {
  const found: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (URL_HEADER.has(name))
      for (const item of typeof value === 'string' ? [value] : value)
        found.push(...pairLeaks(item, `${side} header ${name}`));
    if (!isCredentialName(name)) continue;
    for (const item of typeof value === 'string' ? [value] : value)
      for (const [start, end] of credentialSpans(name, item))
        if (!ONLY_PLACEHOLDERS.test(item.slice(start, end))) found.push(`${side} header ${name}`);
  }
  return found;
}

function fieldLeaks(value: unknown, side: string, path = ''): string[] {
  if (Array.isArray(value))
    return value.flatMap((item, i) => fieldLeaks(item, side, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    typeof item === 'string' && isCredentialName(key) && !ONLY_PLACEHOLDERS.test(item)
      ? [`${side} body field ${path}${path === '' ? '' : '.'}${key}`]
      : fieldLeaks(item, side, `${path}${path === '' ? '' : '.'}${key}`),
  );
}

function bodyLeaks(side: CassetteRequest | CassetteResponse, name: string): string[] {
  const { body } = side;
  if (body && 'json' in body) return fieldLeaks(body.json, name);
  if (body && 'text' in body && isFormText(body.text, side.headers['content-type']))
    return credentialPairs(body.text)
      .filter(({ value }) => !ONLY_PLACEHOLDERS.test(value))
      .map(({ start }) => {
        const pair = body.text.slice(0, start - 1);
        return `${name} body field ${pair.slice(Math.max(pair.lastIndexOf('&'), -1) + 1)}`;
      });
  return [];
}

/**
 * Searches a cassette for secrets: every form of each given secret anywhere in it, and any credential-named
 * header, JSON or form field, or query parameter (of a URL or a `Location`), whatever its case and separators,
 * that holds something other than placeholders.
 *
 * @param file - the cassette's content
 * @param secrets - the secrets the recording knew (none for a committed cassette read on its own)
 * @returns where each leak is (test, exchange, request or response, header or field), never what leaked
 * @internal
 */
export function findCassetteLeaks(file: CassetteFile, secrets: Iterable<string> = []): string[] {
  const set = new SecretSet();
  for (const secret of secrets) set.add(secret);
  const found: string[] = [];
  for (const [test, exchanges] of Object.entries(file.tests))
    exchanges.forEach((exchange, index) => {
      const at = `test "${test}", exchange ${index + 1} (${shownRequest(exchange.request, set)})`;
      const { request, response } = exchange;
      const places = [
        ...pairLeaks(request.url, 'request URL'),
        ...headerLeaks(request.headers, 'request'),
        ...headerLeaks(response.headers, 'response'),
        ...bodyLeaks(request, 'request'),
        ...bodyLeaks(response, 'response'),
      ];
      if (set.size > 0) {
        if (set.leaksIn(JSON.stringify(request))) places.push('request');
        if (set.leaksIn(JSON.stringify(response))) places.push('response');
        // A binary body is searched as the text its bytes decode to, where base64 hides an unaligned form.
        for (const [side, body] of [
          ['request', request.body],
          ['response', response.body],
        ] as const)
          if (
            body &&
            'base64' in body &&
            set.leaksIn(Buffer.from(body.base64, 'base64').toString('utf8'))
          )
            places.push(`${side} body`);
      }
      for (const place of places) found.push(`${at}: a secret in the ${place}`);
    });
  return found;
}
