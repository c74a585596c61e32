import type { ConformanceCheck } from '../checks/check-helpers.js';
import { ConformanceFailure } from '../conformance-failure.js';
import type { DeclaredOperation } from '../declared-operations.js';
import { expectShape, pathOf } from '../checks/platform-check-helpers.js';
import { firstDifference, hex } from './compare-values.js';
import { roundTripFile } from './round-trip-file.js';
import { declaredName, prepare, withEntity } from './round-trip-place.js';

/** An uploaded attachment reads back byte for byte. */
export const attachmentRoundTrip: ConformanceCheck = {
  id: 'platform.attachment-round-trip',
  name: 'an uploaded attachment reads back byte for byte',
  async run(run) {
    const ready = await prepare(run, ['createAttachment', 'attachmentContent']);
    if ('skipped' in ready) return ready;
    const { platform, declared, place } = ready;
    const file = roundTripFile();
    const fileName = 'conformance-ü-é-✓.bin';
    const outcome = await withEntity(run, ready, async (entityId) => {
      const upload = declared.get('createAttachment') as DeclaredOperation;
      const form = new FormData();
      form.append('fileName', fileName);
      form.append('file', new Blob([file]), fileName);
      const stored = expectShape(
        'createAttachment',
        await platform.call({
          method: upload.method,
          path: pathOf(upload.pattern, { entityTypeId: place.entityTypeId, entityId }),
          query: { projectId: place.projectId },
          body: form,
        }),
      ) as Record<string, unknown>;
      const uriName =
        declaredName(place.type, 'attachments', 'contentUriFieldName') ?? 'contentUri';
      const contentUri = stored[uriName];
      if (typeof contentUri !== 'string' && typeof contentUri !== 'number')
        throw new ConformanceFailure(
          `platform.createAttachment answered no content URI under '${uriName}' (the entity type's attachments.fieldNameInfo.contentUriFieldName): the platform cannot read the file back.`,
        );
      const content = declared.get('attachmentContent') as DeclaredOperation;
      const read = await platform.callOperation('attachmentContent', {
        params: { entityTypeId: place.entityTypeId },
        query: { projectId: place.projectId, contentUri: String(contentUri) },
        path: content.pattern,
      });
      if (read.status !== 200)
        throw new ConformanceFailure(
          `platform.attachmentContent of the file just uploaded answered ${read.status}${read.code === undefined ? '' : ` ${read.code}`}; expected 200 with its bytes.`,
        );
      const back = read.answer;
      const at = firstDifference(back, file);
      if (at !== -1)
        throw new ConformanceFailure(
          `The uploaded file (${file.length} bytes, every byte value) read back as ${back.length} bytes, different from byte ${at} on (sent ${hex(file, at)}, read ${hex(back, at) || 'nothing'}): ` +
            'the end system stored something else than the platform uploaded. A chunked upload stored with its framing looks like this (sent bytes from a stream to a server that does not decode chunked bodies): let the end-system client send the file with its size (the default; not chunkedUploads), and pass body.file.stream on unchanged.',
        );
      const remove = declared.get('deleteAttachment');
      const idName = declaredName(place.type, 'attachments', 'idFieldName') ?? 'attachmentId';
      const attachmentId = stored[idName] ?? stored.id;
      if (
        remove !== undefined &&
        (typeof attachmentId === 'string' || typeof attachmentId === 'number')
      )
        await platform.call({
          method: remove.method,
          path: pathOf(remove.pattern, { entityTypeId: place.entityTypeId, entityId }),
          query: { projectId: place.projectId, attachmentId: String(attachmentId) },
        });
      return undefined;
    });
    return typeof outcome === 'string' ? { skipped: outcome } : undefined;
  },
};
