import { ConnectorError } from '../errors/connector-error.js';
import { Base64Encoder } from './base64-stream.js';

/**
 * A file's content as an operation answers it: bytes in memory, or a stream of them, such as the body of an
 * end-system response (`response.body`), a Node stream, or a `Blob`. A stream is sent as it arrives, never
 * held whole.
 *
 * @example
 * ```ts
 * import type { FileContent } from '@connector-sdk/core';
 *
 * const fromBytes: FileContent = new TextEncoder().encode('hello');
 * const fromBlob: FileContent = new Blob(['hello'], { type: 'text/plain' });
 * ```
 */
export type FileContent =
  Uint8Array | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array> | Blob;

/**
 * Whether a value is {@link FileContent}.
 *
 * @internal
 */
export function isFileContent(value: unknown): value is FileContent {
  if (value instanceof Uint8Array || value instanceof ReadableStream || value instanceof Blob)
    return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * The chunks of a {@link FileContent}, one at a time; `return()` cancels a stream.
 *
 * @internal
 */
export function fileChunks(content: FileContent): AsyncIterator<unknown> {
  if (content instanceof Uint8Array) {
    let sent = false;
    return {
      next: () =>
        Promise.resolve(
          sent
            ? { done: true, value: undefined }
            : ((sent = true), { done: false, value: content }),
        ),
    };
  }
  if (content instanceof Blob) return fileChunks(content.stream());
  if (content instanceof ReadableStream) {
    const reader = content.getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<unknown>>,
      return: async () => {
        await reader.cancel();
        return { done: true, value: undefined };
      },
    };
  }
  return content[Symbol.asyncIterator]();
}

const CUT_OFF = () =>
  new ConnectorError(
    'END_SYSTEM_ERROR',
    "The file answer was cut off: reading the file failed part-way (the connector's log says why)",
  );

const notBytes = (name: string, value: unknown) =>
  new ConnectorError(
    'INVALID_OPERATION_RESULT',
    `Operation "${name}" answers a file, but its content gave ${value === null ? 'null' : typeof value} instead of bytes`,
  );

/**
 * The base64 text of a file as a stream, for an operation that answers a file's content. The first chunk is
 * read before anything is answered, so an end system that fails at once is answered with a contract error; a
 * failure after that can only cut the answer off (the binding closes the connection, so the platform never
 * takes a partial file for a whole one). When the platform goes away, the source is cancelled.
 *
 * @param content - what the handler returned
 * @param name - the operation, for error messages
 * @param onFailure - told of a failure after the answer has started
 * @internal
 */
export async function base64Stream(
  content: unknown,
  name: string,
  onFailure: (error: unknown) => void,
): Promise<ReadableStream<Uint8Array>> {
  if (!isFileContent(content)) throw notBytes(name, content);
  const source = fileChunks(content);
  const encoder = new Base64Encoder();
  const read = async (): Promise<Uint8Array | undefined> => {
    const next = await source.next();
    if (next.done) return undefined;
    if (!(next.value instanceof Uint8Array)) {
      // The SDK's own refusal: the source still runs, and must be let go.
      void Promise.resolve(source.return?.()).catch(() => undefined);
      throw notBytes(name, next.value);
    }
    return next.value;
  };
  let first: Uint8Array | undefined = await read();
  let ended = false;
  // Set when the client went away: a read that finishes after that is nobody's failure.
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const chunk = first ?? (await read());
            first = undefined;
            if (cancelled) return;
            if (chunk === undefined) {
              ended = true;
              const rest = encoder.end();
              if (rest !== '') controller.enqueue(Buffer.from(rest, 'latin1'));
              controller.close();
              return;
            }
            const text = encoder.write(chunk);
            if (text !== '') {
              controller.enqueue(Buffer.from(text, 'latin1'));
              return;
            }
          }
        } catch (error) {
          if (cancelled) return;
          onFailure(error);
          // The server under a binding may print what the stream failed with: never the end system's words.
          controller.error(CUT_OFF());
        }
      },
      async cancel() {
        cancelled = true;
        if (!ended) await source.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
