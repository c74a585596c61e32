import { secretForms } from '@connector-sdk/core';
import { bodyContent, type CassetteRequest } from '../cassette-file.js';
import { secretUnits } from '../scrub/secret-units.js';

// How a request the connector sends is matched with a recorded one. A placeholder of the recording
// matches whatever non-empty value the connector sends in its place (one of the request's secrets, when they
// are known: a placeholder stands for a secret, not for any text); once a secret's value is known in a replay (sent by the
// connector, or handed out in a replayed answer), the same placeholder must be sent that value again (or a
// form of it): so a login's token is seen to flow on, and a connector that sends the wrong one does not match.

/**
 * The parts of a request a replay compares.
 *
 * @example
 * ```ts
 * const parts: CassetteMatchPart[] = ['method', 'path', 'credentials'];
 * ```
 */
export type CassetteMatchPart =
  'method' | 'origin' | 'path' | 'query' | 'body' | 'headers' | 'credentials';

/**
 * Decides whether a recorded request answers the one sent: a list of the parts to compare, or a function given
 * the recorded request (placeholders known so far put back) and the one sent.
 *
 * @example
 * ```ts
 * // The search's body holds today's date: match the rest only.
 * useCassette({ path: 'test/cassettes/acme.json', match: ['method', 'path', 'query', 'credentials'] });
 * ```
 */
export type CassetteMatcher =
  readonly CassetteMatchPart[] | ((recorded: CassetteRequest, sent: CassetteRequest) => boolean);

/**
 * The parts compared unless a cassette says otherwise. `origin` compares scheme, host and port (a recording of
 * `https://acme.example` does not answer a call to another host). `credentials` compares the headers that held
 * a secret when recorded (the token of `Authorization`, a cookie): what a replay handed out must come back
 * there.
 */
export const DEFAULT_MATCH: readonly CassetteMatchPart[] = [
  'method',
  'origin',
  'path',
  'query',
  'body',
  'credentials',
];

/** Headers the client sets on its own or that vary between runs: never compared. */
const VOLATILE_HEADERS = new Set(['user-agent', 'content-length', 'accept-encoding', 'connection']);

const PLACEHOLDER = /\{\{secret:(\d+)\}\}/g;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A URL's path and query, read without parsing (a placeholder would be percent-encoded by the URL parser). */
export function pathAndQuery(url: string): { readonly path: string; readonly query: string } {
  const rest = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const mark = rest.indexOf('?');
  return mark === -1
    ? { path: rest === '' ? '/' : rest, query: '' }
    : { path: rest.slice(0, mark) || '/', query: rest.slice(mark + 1) };
}

const DEFAULT_PORT: Readonly<Record<string, string>> = { http: '80', https: '443' };

/** A URL's scheme, host and port, lower-case, a default port left out; empty when it has none. */
export function originOf(url: string): string {
  const found = /^([a-z][a-z0-9+.-]*):\/\/(?:[^/?#@]*@)?([^/?#]*)/i.exec(url);
  if (found === null) return '';
  const scheme = (found[1] as string).toLowerCase();
  const host = (found[2] as string).toLowerCase();
  const port = /:(\d+)$/.exec(host)?.[1];
  return `${scheme}://${port !== undefined && DEFAULT_PORT[scheme] === port ? host.slice(0, -port.length - 1) : host}`;
}

/** Whether `sent` is the value `known`, in any form the redactor knows. */
function sameSecret(sent: string, known: string): boolean {
  if (sent === known) return true;
  const { anywhere, standalone } = secretForms(known);
  return anywhere.includes(sent) || standalone.includes(sent);
}

/** The secrets a match reads: those known in the replay, and the request's own. */
export interface MatchSecrets {
  /** The secrets' values known in this replay, by number; new ones are added on a match. */
  readonly known: Map<number, string>;
  /** The request's secrets, when known: a placeholder not known yet must bind one of them. @default [] */
  readonly secrets?: readonly string[];
}

/** How {@link differingParts} compares a request with a recorded one. */
export interface MatchOptions extends MatchSecrets {
  /** The parts compared. */
  readonly parts: readonly CassetteMatchPart[];
}

/**
 * Matches a recorded text, whose placeholders stand for secrets, with the text sent.
 *
 * @param template - the recorded text
 * @param sent - the text the connector sent
 * @param replay - the secrets known in this replay (added to on a match), and the request's own
 * @returns whether they match
 */
export function matchText(template: string, sent: string, replay: MatchSecrets): boolean {
  const { known, secrets = [] } = replay;
  if (!template.includes('{{secret:')) return template === sent;
  const numbers: number[] = [];
  const pattern = template
    .split(PLACEHOLDER)
    .map((part, index) => {
      if (index % 2 === 0) return escape(part);
      numbers.push(Number(part));
      return '([\\s\\S]+?)';
    })
    .join('');
  const found = new RegExp(`^${pattern}$`).exec(sent);
  if (found === null) return false;
  const learned = new Map<number, string>();
  for (const [index, n] of numbers.entries()) {
    const value = found[index + 1] as string;
    const before = known.get(n) ?? learned.get(n);
    if (before === undefined) {
      if (secrets.length > 0 && !isSecret(value, secrets, known)) return false;
      learned.set(n, value);
    } else if (!sameSecret(value, before)) return false;
  }
  for (const [n, value] of learned) known.set(n, value);
  return true;
}

/** Whether a value is one of the request's secrets (or their credential parts), or one known in the replay. */
function isSecret(
  value: string,
  secrets: readonly string[],
  known: ReadonlyMap<number, string>,
): boolean {
  return [...secrets.flatMap((secret) => [secret, ...secretUnits(secret)]), ...known.values()].some(
    (secret) => sameSecret(value, secret),
  );
}

/** The text of each part of a request as compared. */
export function partText(
  request: CassetteRequest,
  part: Exclude<CassetteMatchPart, 'headers' | 'credentials'>,
): string {
  if (part === 'method') return request.method.toUpperCase();
  if (part === 'origin') return originOf(request.url);
  if (part === 'path' || part === 'query') return pathAndQuery(request.url)[part];
  const content = bodyContent(request.body);
  if (content === undefined) return '';
  // A multipart body is compared byte for byte (latin1 keeps each byte one character), its boundary named
  // by a fixed word: multipartBody makes up a new boundary for each call.
  const boundary = multipartBoundary(request.headers);
  if (boundary === undefined)
    return typeof content === 'string' ? content : Buffer.from(content).toString('base64');
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  return bytes.toString('latin1').replaceAll(boundary, '{{boundary}}');
}

/** The boundary a multipart request's content type names. */
function multipartBoundary(headers: CassetteRequest['headers']): string | undefined {
  const type = headers['content-type'];
  const text = typeof type === 'string' ? type : type?.join(', ');
  if (text === undefined || !/^multipart\//i.test(text)) return undefined;
  return /boundary="?([^";,]+)"?/i.exec(text)?.[1];
}
/**
 * The parts of a request that differ from a recorded one; none when it matches, and then the secrets it bound
 * are added to `options.known`.
 */
export function differingParts(
  recorded: CassetteRequest,
  sent: CassetteRequest,
  options: MatchOptions,
): CassetteMatchPart[] {
  const { parts, known } = options;
  const trial = new Map(known);
  const within: MatchSecrets = { known: trial, secrets: options.secrets ?? [] };
  const differing: CassetteMatchPart[] = [];
  const text = (item: string | readonly string[] | undefined) =>
    item === undefined ? '' : typeof item === 'string' ? item : item.join(', ');
  for (const part of parts) {
    if (part === 'headers' || part === 'credentials') {
      for (const [name, value] of Object.entries(recorded.headers)) {
        if (VOLATILE_HEADERS.has(name)) continue;
        if (part === 'credentials' && !text(value).includes('{{secret:')) continue;
        if (!matchText(text(value), text(sent.headers[name]), within)) {
          differing.push(part);
          break;
        }
      }
    } else if (!matchText(partText(recorded, part), partText(sent, part), within)) {
      differing.push(part);
    }
  }
  if (differing.length === 0) for (const [n, value] of trial) known.set(n, value);
  return differing;
}

/** A recorded text with the secrets known so far put back. */
export function putBack(text: string, known: ReadonlyMap<number, string>): string {
  return text.replace(PLACEHOLDER, (whole, n: string) => known.get(Number(n)) ?? whole);
}
