// Sends one declared end-system request: its path with the request's ids in it (each one encoded as one path
// segment, never `.` or `..`), its query and headers, resolved from the call where they are functions.
import type { z } from 'zod';
import { EndSystemError, ValidationError } from '../../errors/errors.js';
import type {
  EntityIds,
  OrCall,
  RequestSpec,
  RestCall,
  RestMethod,
} from '../declaration/request-spec.js';

/**
 * A value of a declaration, or what its function gives for this call.
 *
 * @internal
 */
export function resolve<S, T>(value: OrCall<S, T>, call: RestCall<S>): T {
  return typeof value === 'function' ? (value as (call: RestCall<S>) => T)(call) : value;
}

/**
 * A declared request: a path alone is written as the request of that path.
 *
 * @internal
 */
export const asRequest = <R extends { readonly path: unknown }>(
  declared: R | string,
): R | { readonly path: string } => (typeof declared === 'string' ? { path: declared } : declared);

/**
 * The path under the API's base URL that a URL the end system or the platform names points to, or `undefined`
 * when it points elsewhere (another origin, outside the base path, the base itself, a path ky's prefix would
 * refuse): nothing a caller or an answer names may send the session's credentials anywhere else.
 *
 * @param url - the URL, absolute or relative to `relativeTo`
 * @param base - the API's base URL, ending with `/`
 * @param relativeTo - what a relative URL is read against @default base
 *
 * @internal
 */
export function pathUnder(url: string, base: string, relativeTo = base): string | undefined {
  const href = new URL(url, relativeTo).href;
  const path = href.slice(base.length);
  return href.startsWith(base) && path !== '' && !path.startsWith('/') ? path : undefined;
}

/** A placeholder, its name captured: `split` on it gives the text between placeholders and their names. */
const PLACEHOLDER = /\{(id|projectId|entityTypeId|attachmentId)\}/;
/** Most templates remembered split; past it the memory starts again (a template made per call stays bounded). */
const MAX_TEMPLATES = 256;
/**
 * Each template split once: text, name, text, … text. `replace` with a function cost five times as much per
 * call (a match array and a call per placeholder), on every read of a declared entity.
 */
const templates = new Map<string, readonly string[]>();

function templateParts(template: string): readonly string[] {
  let parts = templates.get(template);
  if (parts === undefined) {
    parts = template.split(PLACEHOLDER);
    if (templates.size >= MAX_TEMPLATES) templates.clear();
    templates.set(template, parts);
  }
  return parts;
}

type PathIds = EntityIds & { readonly attachmentId?: string };

function idInPath(name: string, ids: PathIds): string {
  const value = ids[name as keyof PathIds];
  if (typeof value !== 'string' || value === '')
    throw new ValidationError(`'${name}' is required here`);
  if (value === '.' || value === '..') throw new ValidationError(`'${name}' is not an id`);
  return encodeURIComponent(value);
}

/**
 * A path template with the request's ids in it.
 *
 * @param template - such as `'projects/{projectId}/issues/{id}'`
 * @param ids - the request's ids
 * @returns the path
 * @throws ValidationError when an id the path needs is missing or `.`/`..` (a step out of the path)
 */
export function expandPath(template: string, ids: PathIds): string {
  const parts = templateParts(template);
  let path = parts[0] as string;
  for (let at = 1; at < parts.length; at += 2)
    path += idInPath(parts[at] as string, ids) + (parts[at + 1] as string);
  return path;
}

/** What one request adds to its declaration: its method, JSON body and extra query parameters. */
export interface Sending {
  readonly method: RestMethod;
  readonly json?: unknown;
  /** A body that is not JSON (a multipart upload), with its headers. */
  readonly body?: ReadableStream<Uint8Array>;
  readonly headers?: Readonly<Record<string, string>>;
  /** Ids of this request only, for the path (`{attachmentId}`). */
  readonly extraIds?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The path instead of the declared one (the next page a `Link` header names). */
  readonly path?: string;
}

/** ky's shortcut of each method. */
const SHORTCUTS = {
  GET: 'get',
  POST: 'post',
  PUT: 'put',
  PATCH: 'patch',
  DELETE: 'delete',
} as const satisfies Record<RestMethod, string>;

/** The query's defined parameters as text, or `undefined` when it has none (ky then builds no search params). */
function definedOnly(
  query: Readonly<Record<string, string | number | boolean | undefined>>,
): Record<string, string> | undefined {
  let defined: Record<string, string> | undefined;
  for (const name in query) {
    const value = query[name];
    if (value !== undefined) (defined ??= {})[name] = String(value);
  }
  return defined;
}

/** Two header sets as one, or `undefined` when both are empty (ky then merges no headers into its defaults). */
function bothHeaders(
  declared: Readonly<Record<string, string>> | undefined,
  sent: Readonly<Record<string, string>> | undefined,
): Record<string, string> | undefined {
  const headers = { ...declared, ...sent };
  for (const _ in headers) return headers;
  return undefined;
}

/**
 * Sends a declared request through the call's client. Only what the declaration and the request add goes to ky:
 * an empty query or header set, or any options at all, cost ky merges of the client's defaults on every call.
 *
 * @param call - the call
 * @param spec - the declared request
 * @param sending - the method, body and extra parameters
 * @returns the end system's answer (an error status has already become the platform's error)
 */
export async function send<S>(
  call: RestCall<S>,
  spec: RequestSpec<S>,
  sending: Sending,
): Promise<Response> {
  const path =
    sending.path ??
    expandPath(
      resolve(spec.path, call),
      sending.extraIds === undefined ? call.ids : { ...call.ids, ...sending.extraIds },
    );
  // A next page named by the end system carries its own query: the declared one would replace it.
  const declared =
    spec.query === undefined || sending.path !== undefined ? undefined : resolve(spec.query, call);
  const query = definedOnly({ ...declared, ...sending.query });
  const headers = bothHeaders(
    spec.headers === undefined ? undefined : resolve(spec.headers, call),
    sending.headers,
  );
  const options = {
    ...(query === undefined ? {} : { searchParams: new URLSearchParams(query) }),
    ...(headers === undefined ? {} : { headers }),
    ...(sending.json === undefined ? {} : { json: sending.json }),
    ...(sending.body === undefined ? {} : { body: sending.body }),
  };
  const method = spec.method ?? sending.method;
  // Nothing but the method: its shortcut without options, which merges the client's defaults into the call once
  // rather than making an extended instance first (bound-client.ts). A method the types do not know (from
  // JavaScript) goes to ky as it is.
  for (const _ in options) return call.api(path, { method, ...options });
  const shortcut = Object.hasOwn(SHORTCUTS, method) ? SHORTCUTS[method] : undefined;
  return shortcut === undefined ? call.api(path, { method }) : call.api[shortcut](path);
}

/**
 * The JSON of an answer; `undefined` for an empty one (a 204).
 *
 * @throws EndSystemError when the answer is not JSON
 */
export async function jsonOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EndSystemError('The end system answered something that is not JSON');
  }
}

/**
 * An item of the end system's answer, checked against its schema: another shape is a 502 that says where, not a
 * crash later.
 *
 * @param schema - the item's schema
 * @param value - what the end system answered
 * @param what - the entity type's name, for the message
 */
export function parseItem<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new EndSystemError(
    `The end system answered a ${what} in a shape its schema does not describe${whereAndWhy(result.error.issues)}`,
  );
}

/** Where the first of zod's issues is and what it says, for a message: ` at 'a.b': …`. */
function whereAndWhy(issues: readonly z.core.$ZodIssue[]): string {
  const issue = issues[0];
  if (issue === undefined) return '';
  const where = issue.path.length === 0 ? '' : ` at '${issue.path.join('.')}'`;
  return `${where}: ${issue.message}`;
}

const isZodError = (error: unknown): error is { readonly issues: readonly z.core.$ZodIssue[] } =>
  error instanceof Error &&
  error.name === 'ZodError' &&
  Array.isArray((error as { issues?: unknown }).issues);

/**
 * What a declaration's function picks out of an end system's answer: a zod error it throws (it parsed the answer
 * and the answer did not fit) is the end system's 502, not the connector's 500.
 *
 * @param pick - the declaration's function, called on the answer
 * @param what - the entity type's name, for the message
 */
export function picked<T>(pick: () => T, what: string): T {
  try {
    return pick();
  } catch (error) {
    if (!isZodError(error)) throw error;
    throw new EndSystemError(
      `The end system answered a ${what} in a shape the connector does not read${whereAndWhy(error.issues)}`,
      { cause: error },
    );
  }
}
