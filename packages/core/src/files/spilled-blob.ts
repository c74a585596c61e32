/**
 * A file of unknown length made into a `Blob` of known size, held in memory while small and spilled to a
 * temporary file beyond that. Written here because no library does this for web streams: a `Blob` is what
 * Node's fetch sends with a `Content-Length` and can send again, and `fs.openAsBlob` gives one backed by a file
 * without reading it into memory. Some servers do not decode a chunked request body and store its framing as
 * the file (Ruby's `thin`, Python's `wsgiref`), so an upload whose size the SDK can learn is sent with its size.
 */
import { mkdtemp, open, rm } from 'node:fs/promises';
import { openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileChunks, type FileContent } from './file-content.js';

/** A file made sized: the `Blob` to send, and how to remove the temporary file behind it, if any. */
export interface SpilledBlob {
  readonly blob: Blob;
  /** Removes the temporary file; safe to call more than once, and a no-op for a file held in memory. */
  dispose(): Promise<void>;
}

/** Options of {@link spilledBlob}. */
export interface SpillOptions {
  /** Most bytes held in memory; a longer file goes to a temporary file. */
  readonly memoryBytes: number;
  /** Stops reading, and removes what was written, when it aborts. */
  readonly signal?: AbortSignal | undefined;
}

const NOTHING_TO_REMOVE = () => Promise.resolve();

/**
 * Reads a file to its end into a `Blob`: in memory up to `memoryBytes`, else in a temporary file under the
 * system's temporary directory (`connector-sdk-upload-*`), removed by `dispose()`.
 *
 * @param content - the file: bytes, a `Blob`, a web stream or an async iterable of bytes
 * @param options - how much to hold in memory, and the signal that stops the read
 * @returns the sized file
 * @throws the source's own failure, the signal's reason, or a TypeError when the source gives other than bytes
 * @internal
 */
export async function spilledBlob(
  content: FileContent,
  options: SpillOptions,
): Promise<SpilledBlob> {
  if (content instanceof Blob) return { blob: content, dispose: NOTHING_TO_REMOVE };
  if (content instanceof Uint8Array)
    return { blob: new Blob([content]), dispose: NOTHING_TO_REMOVE };
  const { memoryBytes, signal } = options;
  const source = fileChunks(content);
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  let directory: string | undefined;
  let file: Awaited<ReturnType<typeof open>> | undefined;
  const remove = async () => {
    await file?.close().catch(() => undefined);
    file = undefined;
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  };
  try {
    for (;;) {
      signal?.throwIfAborted();
      const next = await source.next();
      if (next.done) break;
      const chunk = next.value;
      if (!(chunk instanceof Uint8Array))
        throw new TypeError('An upload body gave something other than bytes');
      if (file !== undefined) {
        await file.write(chunk);
        continue;
      }
      held.push(chunk);
      heldBytes += chunk.byteLength;
      if (heldBytes > memoryBytes) {
        directory = await mkdtemp(join(tmpdir(), 'connector-sdk-upload-'));
        file = await open(join(directory, 'body'), 'wx', 0o600);
        for (const part of held.splice(0)) await file.write(part);
      }
    }
    signal?.throwIfAborted();
  } catch (error) {
    await Promise.resolve(source.return?.()).catch(() => undefined);
    await remove();
    throw error;
  }
  if (file === undefined || directory === undefined)
    return { blob: new Blob(held), dispose: NOTHING_TO_REMOVE };
  await file.close();
  file = undefined;
  const blob = await openAsBlob(join(directory, 'body'));
  let removed: Promise<void> | undefined;
  return { blob, dispose: () => (removed ??= remove()) };
}
