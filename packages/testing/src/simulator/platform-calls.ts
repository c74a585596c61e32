import {
  PLATFORM_OPERATIONS,
  type CatalogPath,
  type PathParams,
  type PlatformAnswer,
  type PlatformOperationName,
  type z,
} from '@connector-sdk/core';
import { SimulatorError } from './simulator-errors.js';
import type { CallRequest, SimulatorResponse } from './simulator-types.js';

/** The path parameters of a platform operation, such as `{ entityTypeId: string; entityId: string }`. */
export type PlatformParams<K extends PlatformOperationName> = PathParams<
  CatalogPath<(typeof PLATFORM_OPERATIONS)[K]>
>;

/**
 * What the simulated platform sends to one of its documented operations: its path parameters (required when
 * its path has some), the query as text, a body.
 */
export type PlatformCallInput<K extends PlatformOperationName> = {
  /**
   * The query. The platform writes it as text (`startIndex=0`, `entityTypeId=null`); numbers and booleans are
   * written as `String` writes them, so `{ startIndex: 0 }` is the platform's `startIndex=0`.
   */
  readonly query?: Readonly<Record<string, string | number | boolean>>;
  /** The JSON body of the operations that take one; a `FormData` for an attachment upload. */
  readonly body?: unknown;
  /** Where the connector serves it, when it moved the catalog's path. */
  readonly path?: string;
} & (keyof PlatformParams<K> extends never
  ? { readonly params?: undefined }
  : { readonly params: PlatformParams<K> });

/**
 * What the simulated platform receives from one of its documented operations: the catalog's answer, or for a
 * file's content (answered as base64 text on the wire) the file's bytes, decoded as the platform decodes them.
 *
 * @example
 * ```ts
 * const { answer } = await platform.callOperation('attachmentContent', {
 *   params: { entityTypeId: 'issue' },
 *   query: { contentUri: 'a-1' },
 * });
 * answer; // Uint8Array
 * ```
 */
export type SimulatorAnswer<K extends PlatformOperationName> =
  (typeof PLATFORM_OPERATIONS)[K] extends { readonly answerAs: 'base64' }
    ? Uint8Array
    : PlatformAnswer<K>;

/** A paged list of the catalog and the key of its items in the answer (none: the answer is the list). */
const LIST_KEYS: Partial<Record<PlatformOperationName, string | undefined>> = {
  projects: undefined,
  searchEntities: 'entities',
  getComments: 'comments',
  entityHistory: 'revisions',
  attachmentHistory: 'revisions',
  commentHistory: 'revisions',
  linkHistory: 'revisions',
};

/** The operations `PlatformSimulator.readAll` can page through. */
export type PagedPlatformOperation =
  | 'projects'
  | 'searchEntities'
  | 'getComments'
  | 'entityHistory'
  | 'attachmentHistory'
  | 'commentHistory'
  | 'linkHistory';

type Call = (request: CallRequest) => Promise<SimulatorResponse>;

function pathFor(
  name: PlatformOperationName,
  input: PlatformCallInput<PlatformOperationName>,
): string {
  const pattern = input.path ?? PLATFORM_OPERATIONS[name].path;
  const params = (input.params ?? {}) as Record<string, string>;
  return pattern.replace(/:([A-Za-z_$][\w$]*)/g, (_, param: string) => {
    const value = params[param];
    if (value === undefined)
      throw new TypeError(`platform.${name} needs the path parameter ${param}`);
    return encodeURIComponent(value);
  });
}

/** A query as the platform writes it: every value as text. */
const asText = (query: Readonly<Record<string, string | number | boolean>>) =>
  Object.fromEntries(Object.entries(query).map(([name, value]) => [name, String(value)]));

/**
 * Calls one of the platform's documented operations as the platform does, with the session, and checks the
 * answer against the catalog's shape.
 *
 * @throws {@link SimulatorError} naming the wrong values when a 200 answer has another shape
 * @internal used by `PlatformSimulator.platform`
 */
export async function callPlatform<K extends PlatformOperationName>(
  call: Call,
  name: K,
  input: PlatformCallInput<K>,
): Promise<SimulatorResponse & { readonly answer: SimulatorAnswer<K> }> {
  const entry = PLATFORM_OPERATIONS[name];
  const response = await call({
    method: entry.method,
    path: pathFor(name, input as PlatformCallInput<PlatformOperationName>),
    ...(input.query === undefined ? {} : { query: asText(input.query) }),
    ...(input.body === undefined ? {} : { body: input.body }),
  });
  const schema = (entry as { readonly answer?: z.ZodType }).answer;
  const answerAs = (entry as { readonly answerAs?: 'text' | 'base64' }).answerAs;
  if (answerAs === 'base64' && response.status === 200) {
    // A file's content, in base64 text: decoded as the platform decodes it, refused when it is not base64.
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(response.text) || response.text.length % 4 !== 0)
      throw new SimulatorError(
        `platform.${name} answered text that is not base64 (${response.text.length} characters)`,
      );
    // The body is the file too: it is no JSON, and a test reaching for `.body` means the content.
    const bytes = new Uint8Array(Buffer.from(response.text, 'base64'));
    return { ...response, body: bytes, answer: bytes as SimulatorAnswer<K> };
  }
  const answer = answerAs === 'text' ? response.text : response.body;
  if (response.status === 200 && schema !== undefined) {
    const result = schema.safeParse(answer);
    if (!result.success)
      throw new SimulatorError(
        `platform.${name} answered what the platform cannot read: ${result.error.issues
          .slice(0, 5)
          .map((issue) => `'${['answer', ...issue.path].join('.')}': ${issue.message}`)
          .join('; ')}`,
      );
  }
  return { ...response, answer: answer as SimulatorAnswer<K> };
}

/** A whole list to read: its input and windows. @internal */
export interface PagedRead<K extends PagedPlatformOperation> {
  /** Path parameters, the rest of the query, a body. */
  readonly input: PlatformCallInput<K>;
  /** The items a window asks for. */
  readonly pageSize: number;
  /** The most windows read before the walk counts as endless. @default 1_000 */
  readonly maxPages?: number;
}

/**
 * Reads a whole list as the platform does: windows of `pageSize` from `startIndex` 0, each passing back the
 * `nextPageLink` of the one before when the connector gave one, until a window comes back short.
 *
 * @throws {@link SimulatorError} when a window fails, holds more than `pageSize` items, or the walk does not end
 * @internal used by `PlatformSimulator.readAll`
 */
export async function readAllPages<K extends PagedPlatformOperation>(
  call: Call,
  name: K,
  read: PagedRead<K>,
): Promise<unknown[]> {
  const { input, pageSize, maxPages = 1_000 } = read;
  const key = LIST_KEYS[name];
  const items: unknown[] = [];
  let nextPageLink: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const { status, code, answer } = await callPlatform(call, name, {
      ...input,
      query: {
        ...input.query,
        startIndex: String(page * pageSize),
        maxResults: String(pageSize),
        ...(nextPageLink === undefined ? {} : { nextPageLink }),
      },
    } as PlatformCallInput<K>);
    if (status !== 200)
      throw new SimulatorError(
        `platform.${name} answered ${status} ${code ?? ''} for window ${page + 1}`,
      );
    const list = (
      key === undefined ? answer : (answer as Record<string, unknown>)[key]
    ) as unknown[];
    if (list.length > pageSize)
      throw new SimulatorError(
        `platform.${name} answered ${list.length} items for maxResults=${pageSize}: answer the window asked for`,
      );
    items.push(...list);
    nextPageLink =
      key === undefined
        ? undefined
        : ((answer as { nextPageLink?: string }).nextPageLink ?? undefined);
    if (list.length < pageSize) return items;
  }
  throw new SimulatorError(`platform.${name} still had items after ${maxPages} windows`);
}
