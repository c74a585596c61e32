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

/**
 * A streamed body, read to its end when its call is first sent. It is also what ky is given in place of the stream:
 * an empty body, told apart by its class, which the client's `beforeRequest` hook finds in the call's options and
 * keeps in the call's state (see `call-state.ts`).
 *
 * @internal
 */
export class HeldUpload extends Blob {
  readonly #source: FileContent;
  #sized: Promise<SpilledBlob> | undefined;
  #disposed = false;

  constructor(source: FileContent) {
    super([]);
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
  const answer = send(input, { ...options, body: upload });
  const done = () => upload.dispose();
  answer.then(done, done);
  return answer;
}

/**
 * `request`, sent by ky with `upload` as its empty placeholder, with the body `upload` holds, read to its end.
 *
 * @internal
 */
export async function withHeldBody(request: Request, upload: HeldUpload): Promise<Request> {
  const body = await upload.blob(request.signal);
  return new Request(request, { body, duplex: 'half' } as RequestInit);
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
