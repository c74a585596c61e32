import type { Input, KyInstance, Options, ResponsePromise } from 'ky';
import type { FileContent } from '../../files/file-content.js';
import { spilledBlob, type SpilledBlob } from '../../files/spilled-blob.js';
import { refuseCreate } from '../refused-create.js';

// A body given as a stream (an upload's `body.file.stream`, a `multipartBody`, a download passed on) is sent
// with its size: Node's fetch would send it `Transfer-Encoding: chunked`, which some servers store as the file
// (framing and all), and ky would hold the whole of it anyway in the clone it keeps for a retry. So the call
// hands ky an empty placeholder instead; the client's `fetch` reads the stream to its end (in memory up to
// `MEMORY_BYTES`, then in a temporary file) and sends the resulting `Blob`, which has a `Content-Length` and
// can be sent again by a retry. The temporary file is removed once the call has its answer. A client made
// with `chunkedUploads: true` sends streams as they are.

/** Most bytes of one streamed body held in memory before it goes to a temporary file. */
export const MEMORY_BYTES = 1_048_576;

/** A streamed body, read to its end when its call is first sent. */
class HeldUpload {
  /** What ky is given in place of the stream: an empty body, told apart by identity. */
  readonly placeholder = new Blob([]);
  readonly #source: FileContent;
  #sized: Promise<SpilledBlob> | undefined;
  #disposed = false;

  constructor(source: FileContent) {
    this.#source = source;
  }

  /** The whole body, read once for every attempt of the call. */
  async blob(signal: AbortSignal): Promise<Blob> {
    this.#sized ??= spilledBlob(this.#source, { memoryBytes: MEMORY_BYTES, signal });
    const sized = await this.#sized;
    if (this.#disposed) {
      await sized.dispose();
      throw new Error('The call ended before its body was read');
    }
    return sized.blob;
  }

  /** Removes the temporary file, once the call has its answer or has failed. */
  dispose(): void {
    this.#disposed = true;
    void this.#sized?.then(
      (sized) => sized.dispose(),
      () => undefined,
    );
  }
}

/** The held bodies, by their placeholder (what ky's options carry) and by the requests ky made of them. */
const held = new WeakMap<object, HeldUpload>();

/** Whether a body is a stream of unknown length: a web stream, or an async iterable such as a Node stream. */
function isStream(body: unknown): body is ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> {
  if (body instanceof ReadableStream) return true;
  return (
    typeof body === 'object' &&
    body !== null &&
    !(body instanceof Blob) &&
    typeof (body as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * Makes one call, a streamed body held to be sent with its size.
 *
 * @param send - the ky call: an instance, or one of its methods
 * @param input - the path
 * @param options - the call's options
 * @internal
 */
export function sendSized(
  send: (input: Input, options?: Options) => ResponsePromise,
  input: Input,
  options: Options,
): ResponsePromise {
  if (!isStream(options.body)) return send(input, options);
  const upload = new HeldUpload(options.body as FileContent);
  held.set(upload.placeholder, upload);
  const answer = send(input, { ...options, body: upload.placeholder });
  const done = () => upload.dispose();
  answer.then(done, done);
  return answer;
}

/**
 * Notes that ky made `request` of a call whose body is held (called by the client's `beforeRequest` hook).
 *
 * @internal
 */
export function noteHeldBody(request: Request, body: unknown): void {
  const upload = typeof body === 'object' && body !== null ? held.get(body) : undefined;
  if (upload !== undefined) held.set(request, upload);
}

/**
 * The request with its held body in place, read to its end; the request itself when its body is not held.
 *
 * @internal
 */
export async function withHeldBody(request: Request): Promise<Request> {
  const upload = held.get(request);
  if (upload === undefined) return request;
  const body = await upload.blob(request.signal);
  return new Request(request, { body, duplex: 'half' } as RequestInit);
}

/**
 * Whether a request's body is held, so {@link withHeldBody} has to be awaited before it is sent.
 *
 * @internal
 */
export function holdsBody(request: Request): boolean {
  return held.has(request);
}

/**
 * A ky instance whose calls, and those of the instances its `extend` makes, hold streamed bodies.
 *
 * @internal
 */
export function holdingStreams(instance: KyInstance): KyInstance {
  const methods: Record<string, unknown> = {};
  for (const method of ['get', 'post', 'put', 'patch', 'head', 'delete'] as const)
    methods[method] = (input: Input, options?: Options) =>
      options === undefined ? instance[method](input) : sendSized(instance[method], input, options);
  return Object.assign(
    (input: Input, options?: Options) =>
      options === undefined ? instance(input) : sendSized(instance, input, options),
    methods,
    {
      create: refuseCreate,
      extend: (options: Parameters<KyInstance['extend']>[0]) =>
        holdingStreams(instance.extend(options)),
      stop: instance.stop,
      retry: instance.retry,
    },
  ) as unknown as KyInstance;
}
