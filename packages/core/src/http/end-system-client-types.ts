/** Query parameters of a call: replaces any query of the path. `undefined` values are left out. */
export type SearchParamsInput =
  | string
  | URLSearchParams
  | Readonly<Record<string, string | number | boolean | undefined>>
  | readonly (readonly [string, string | number | boolean])[];

/** Options of one end-system call. */
export interface EndSystemCallOptions {
  /** The HTTP method, for the client called as a function. @default 'GET' */
  readonly method?: string;
  /** Headers of this call, over the client's; an `undefined` value leaves a header out. */
  readonly headers?:
    Headers | Readonly<Record<string, string | undefined>> | readonly (readonly [string, string])[];
  /** The query: it replaces any query written in the path. */
  readonly searchParams?: SearchParamsInput;
  /** A JSON body: serialised, with `Content-Type: application/json` unless a content type is given. */
  readonly json?: unknown;
  /**
   * A body as `fetch` takes it: text, bytes, `FormData`, `URLSearchParams`, a `Blob`, or a `ReadableStream`
   * (an upload passed on as it arrives; such a call is never retried, a stream being read only once).
   */
  readonly body?: RequestInit['body'];
  /** Retries of this call after the first attempt, instead of the client's. */
  readonly retry?: number | { readonly limit?: number };
  /** Throw an `HTTPError` for an answer outside 2xx. @default true */
  readonly throwHttpErrors?: boolean;
}

/**
 * The answer of a call: a promise of the `Response`, with shortcuts that read its body. `.json()` reads an
 * empty answer as `''` and refuses one that is not JSON with a contract error naming the call.
 */
export interface ResponsePromise extends Promise<Response> {
  /** The body as JSON. */
  json<T = unknown>(): Promise<T>;
  /** The body as text. */
  text(): Promise<string>;
  /** The body as bytes. */
  arrayBuffer(): Promise<ArrayBuffer>;
  /** The body as a `Blob`. */
  blob(): Promise<Blob>;
  /** The body as form data. */
  formData(): Promise<FormData>;
}

/** Makes one call: a path relative to the base URL (no leading `/`), and its options. */
export type EndSystemCall = (path: string, options?: EndSystemCallOptions) => ResponsePromise;

/**
 * An end system's HTTP client: call it with a path and options, or use the method shortcuts. Paths are
 * relative to the client's base URL and must not start with `/`.
 *
 * @example
 * ```ts
 * const issue = await acme.get(`rest/issues/${encodeURIComponent(id)}`).json<Issue>();
 * await acme.post('rest/issues', { json: { summary: 'New' } });
 * ```
 */
export interface EndSystemClient extends EndSystemCall {
  /** A `GET`. */
  readonly get: EndSystemCall;
  /** A `POST`. */
  readonly post: EndSystemCall;
  /** A `PUT`. */
  readonly put: EndSystemCall;
  /** A `PATCH`. */
  readonly patch: EndSystemCall;
  /** A `DELETE`. */
  readonly delete: EndSystemCall;
  /** A `HEAD`. */
  readonly head: EndSystemCall;
}
