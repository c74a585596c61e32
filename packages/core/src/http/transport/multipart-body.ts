/**
 * Writing `multipart/form-data` bodies for end systems that take uploads that way. Written here, not taken from
 * undici's `FormData` (ARCHITECTURE.md, D18): `FormData.append` takes only a string or a real `Blob`, so a file
 * that arrives as a stream (an upload's `body.file.stream`, an end-system download) must first be read whole
 * into a `Blob`, which held the whole 64 MiB file (+128 MiB of array buffers) where this body peaked at +11 MiB
 * over the same stream.
 */
import { fileChunks, isFileContent, type FileContent } from '../../files/file-content.js';

/**
 * One part of a {@link multipartBody}: a text field, or a file.
 *
 * @example
 * ```ts
 * import { multipartBody, type MultipartPart } from '@connector-sdk/core/http';
 *
 * const parts: MultipartPart[] = [
 *   { name: 'comment', value: 'Screenshot of the failure' },
 *   {
 *     name: 'file',
 *     fileName: 'failure.png',
 *     contentType: 'image/png',
 *     content: new Blob([new Uint8Array([137, 80, 78, 71])]),
 *   },
 * ];
 * const { body, contentType } = multipartBody(parts);
 * ```
 */
export type MultipartPart =
  | { readonly name: string; readonly value: string }
  | {
      readonly name: string;
      /** The file name the end system is told. */
      readonly fileName: string;
      /** @default 'application/octet-stream' */
      readonly contentType?: string;
      /** The file: bytes, a `Blob`, or a stream such as an upload's `body.file.stream`. */
      readonly content: FileContent;
    };

/**
 * A `multipart/form-data` body made as it is sent, and the content type that names its boundary.
 *
 * @example
 * ```ts
 * import {
 *   createEndSystemClient,
 *   multipartBody,
 *   type MultipartBody,
 * } from '@connector-sdk/core/http';
 *
 * const acme = createEndSystemClient({ baseUrl: 'https://acme.example/api/' });
 * const upload: MultipartBody = multipartBody([{ name: 'note', value: 'hi' }]);
 * await acme.post('attachments', {
 *   body: upload.body,
 *   headers: { 'content-type': upload.contentType },
 * });
 * ```
 */
export interface MultipartBody {
  /** The body: pass it as `body` to the end-system client, which sends it as it is read. */
  readonly body: ReadableStream<Uint8Array>;
  /** The `Content-Type` header to send with it. */
  readonly contentType: string;
}

/** Names and file names as browsers write them into a part's header (WHATWG HTML, multipart/form-data). */
const quoted = (text: string) =>
  text.replaceAll('"', '%22').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/**
 * Makes a `multipart/form-data` body that streams its file parts, for end systems that take uploads that way.
 * A `FormData` would need every file whole in memory as a `Blob`; this reads each file only as the end system
 * takes it, so an attachment the platform uploads can be passed on without being held.
 *
 * @param parts - text fields and files, in the order they are sent
 * @returns the body and its content type
 * @example
 * ```ts
 * import type { UploadBody } from '@connector-sdk/core';
 * import { multipartBody, type EndSystemClient } from '@connector-sdk/core/http';
 *
 * declare const client: EndSystemClient;
 * declare const params: { entityId: string };
 * declare const body: UploadBody<'fileName', 'fileComment'>;
 * const upload = multipartBody([
 *   { name: 'file', fileName: body.fileName, content: body.file.stream },
 * ]);
 * const created = await client
 *   .post(`issues/${params.entityId}/attachments`, {
 *     body: upload.body,
 *     headers: { 'content-type': upload.contentType },
 *   })
 *   .json();
 * // The platform sends the comment after the file: ask for it once the file has
 * // been read.
 * const comment = await body.field('fileComment');
 * ```
 */
export function multipartBody(parts: readonly MultipartPart[]): MultipartBody {
  for (const part of parts) {
    if ('content' in part) {
      if (!isFileContent(part.content))
        throw new TypeError(`multipartBody: the part "${part.name}" has no bytes, Blob or stream`);
      if (/[\r\n]/.test(part.contentType ?? ''))
        throw new TypeError(`multipartBody: the content type of "${part.name}" has a line break`);
    } else if (typeof part.value !== 'string') {
      throw new TypeError(`multipartBody: the part "${part.name}" needs a string value or content`);
    }
  }
  const boundary = `----connector-sdk-${crypto.randomUUID()}`;
  const encoder = new TextEncoder();
  let index = 0;
  let source: AsyncIterator<unknown> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (source !== undefined) {
          const next = await source.next();
          if (!next.done) {
            if (!(next.value instanceof Uint8Array))
              throw new TypeError('multipartBody: a file stream gave something other than bytes');
            controller.enqueue(next.value);
            return;
          }
          source = undefined;
          controller.enqueue(encoder.encode('\r\n'));
          return;
        }
        const part = parts[index];
        index += 1;
        if (part === undefined) {
          if (index === parts.length + 1) controller.enqueue(encoder.encode(`--${boundary}--\r\n`));
          controller.close();
          return;
        }
        let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(part.name)}"`;
        if ('content' in part) {
          head += `; filename="${quoted(part.fileName)}"\r\nContent-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`;
          source = fileChunks(part.content);
          controller.enqueue(encoder.encode(head));
        } else {
          controller.enqueue(encoder.encode(`${head}\r\n\r\n${part.value}\r\n`));
        }
      },
      async cancel() {
        await source?.return?.();
      },
    },
    { highWaterMark: 0 },
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
