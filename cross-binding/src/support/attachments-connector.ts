import { createHash } from 'node:crypto';
import {
  NotFoundError,
  defineConnector,
  field,
  secret,
  type PlatformAnswer,
} from '@connector-sdk/core';

/** The 251 bytes the pattern repeats. */
const CYCLE = Buffer.from(Uint8Array.from({ length: 251 }, (_, i) => i));

/**
 * Bytes `i % 251` for position `i`: any length of them can be made again to compare. Filled natively from the
 * cycle (a byte at a time took half a second for 5 MiB, several seconds on a busy machine).
 */
export const patternBytes = (start: number, length: number): Uint8Array => {
  const at = start % 251;
  const bytes = Buffer.alloc(length, Buffer.concat([CYCLE.subarray(at), CYCLE.subarray(0, at)]));
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
};

/** A file of `size` pattern bytes, made in 64 KiB pieces as an end system's download would arrive. */
function download(size: number, failAfter?: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (failAfter !== undefined && sent >= failAfter) {
        controller.error(new Error('the end system reset the download'));
        return;
      }
      if (sent >= size) {
        controller.close();
        return;
      }
      const length = Math.min(65_536, size - sent);
      controller.enqueue(patternBytes(sent, length));
      sent += length;
    },
  });
}

/** A connector serving the attachment operations: uploads are hashed as they stream, never held. */
export const attachmentsConnector = defineConnector({
  name: 'attachments',
  version: '1.0.0',
  config: { url: field.url() },
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: secret('Bearer attachments-token') }),
  operations: ({ platform }) => {
    async function store(
      body: Parameters<Parameters<typeof platform.createAttachment>[0]>[0]['body'],
      id: string,
    ): Promise<PlatformAnswer<'createAttachment'>> {
      const hash = createHash('sha256');
      let size = 0;
      for await (const chunk of body.file.stream) {
        hash.update(chunk);
        size += chunk.byteLength;
      }
      return {
        id,
        contentUri: `file-${id}`,
        fileName: body.fileName,
        fileComment: (await body.field('fileComment')) ?? null,
        contentType: body.file.contentType,
        size,
        sha256: hash.digest('hex'),
      };
    }
    return {
      createAttachment: platform.createAttachment(({ params, body }) =>
        store(body, `${params.entityId}-1`),
      ),
      updateAttachment: platform.updateAttachment(({ query, body }) =>
        store(body, query.attachmentId),
      ),
      attachmentContent: platform.attachmentContent(({ query }) => {
        const [kind, size, failAfter] = query.contentUri.split(':');
        if (kind === 'pattern') return download(Number(size));
        if (kind === 'failing') return download(Number(size), Number(failAfter));
        throw new NotFoundError(`No attachment ${query.contentUri}`);
      }),
    };
  },
});
