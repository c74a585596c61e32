// An entity's comments and attachments, through their declarations: comments listed (after the platform's
// `afterTime`) and added, attachments listed, uploaded as `multipart/form-data` with the file's length, downloaded
// from under the API's base URL only, and deleted.
import { ValidationError } from '../../errors/errors.js';
import type { UploadBody } from '../../files/upload.js';
import { multipartBody } from '../../http/transport/multipart-body.js';
import { readWindow, type PageWindow } from '../../platform/paging.js';
import { asRequest, jsonOf, parseItem, pathUnder, picked, send } from './endpoint.js';
import { listAll } from './entity-list.js';
import type { ListSpec, RestCall } from '../declaration/request-spec.js';
import { orderOf, readFields, writeFields } from '../mapping/field-mapping.js';
import { pathSteps, readPath } from '../mapping/field-path.js';
import type { Attachments, CompiledPart, Comments, PartWrite } from '../declaration/part-spec.js';

/** A part's item as the end system answered it, checked against its schema. */
async function answered<S>(
  part: CompiledPart<unknown>,
  write: {
    readonly spec: PartWrite<S, unknown>;
    readonly response: Response;
    readonly call: RestCall<S>;
  },
  what: string,
): Promise<unknown> {
  const body = await jsonOf(write.response);
  const pick = write.spec.answer;
  const item = typeof pick === 'function' ? picked(() => pick(body, write.call), what) : body;
  return parseItem(part.schema, item, what);
}

/**
 * One entity's comments after `afterTime` (a date in the comment dates' declared pattern; `null`: all), the
 * platform's window of them.
 *
 * @internal
 */
export async function readComments<S>(
  part: Comments<S>,
  call: RestCall<S>,
  query: PageWindow & { readonly afterTime?: string | null | undefined; readonly cap: number },
) {
  const dated = part.fields.find((field) => field.id === part.spec.roles.createdDate);
  // afterTime in the creation date's pattern ("null": every comment); a comment without a date is kept.
  const after =
    typeof query.afterTime === 'string' && dated !== undefined
      ? Number(orderOf(dated, query.afterTime, 'afterTime'))
      : undefined;
  const newer = (comment: Readonly<Record<string, unknown>>) => {
    if (after === undefined || dated === undefined) return true;
    const created = comment[dated.id];
    return created === undefined || created === null || Number(dated.order(created)) > after;
  };
  const comments = await readWindow(
    query,
    {
      all: async () =>
        (await listAll(call, asRequest(part.spec.list)))
          .map((item) => readFields(part.fields, parseItem(part.schema, item, 'comment')))
          .filter(newer),
    },
    { maxResults: query.cap },
  );
  return { nextPageLinkSupported: false, comments };
}

/**
 * Adds a comment from the platform's text and title, and answers its id and creation date under their names.
 *
 * @internal
 */
export async function addComment<S>(
  part: Comments<S>,
  call: RestCall<S>,
  sent: Readonly<Record<string, unknown>>,
) {
  const { roles } = part.spec;
  const declared = part.spec.add;
  if (declared === undefined)
    throw new ValidationError('Comments cannot be added in this end system');
  // The platform sends the text and a title; anything else it sends (a type, the parts it read) is not written.
  const writable = part.fields.filter(
    (field) => field.id === roles.body || field.id === roles.title,
  );
  const mapped = Object.fromEntries(
    Object.entries(sent).filter(([name]) => writable.some((field) => field.id === name)),
  );
  if (typeof mapped[roles.body] !== 'string' || mapped[roles.body] === '')
    throw new ValidationError(`'${roles.body}' is required: the comment's text`);
  const change = writeFields(writable, mapped, {
    typeId: 'comment',
    idField: roles.id,
    entityId: 'comment',
    where: '',
  });
  const spec: PartWrite<S, unknown> = asRequest(declared);
  const json = spec.body === undefined ? change : spec.body({ change, item: change }, call);
  const response = await send(call, spec, { method: 'POST', json });
  const comment = readFields(
    part.fields,
    await answered(part, { spec, response, call }, 'comment'),
  );
  return { [roles.id]: comment[roles.id], [roles.createdDate]: comment[roles.createdDate] };
}

/**
 * An entity's attachments as the platform reads them, from its item or their own list.
 *
 * @internal
 */
export async function readAttachments<S>(part: Attachments<S>, call: RestCall<S>, item: unknown) {
  const { list } = part.spec;
  if (list === undefined) return [];
  const found =
    'inItem' in list
      ? readPath(item, pathSteps(list.inItem))
      : await listAll(call, list as ListSpec<S>);
  if (!Array.isArray(found)) return [];
  return found.map((file) => readFields(part.fields, parseItem(part.schema, file, 'attachment')));
}

/**
 * Uploads the platform's file to the end system as `multipart/form-data` (the file with its length, its name as a
 * text part where declared), and answers the new attachment.
 *
 * @internal
 */
export async function uploadAttachment<S>(
  part: Attachments<S>,
  call: RestCall<S>,
  body: UploadBody<'fileName', 'fileComment'>,
) {
  const upload = part.spec.upload;
  if (upload === undefined)
    throw new ValidationError('Files cannot be attached in this end system');
  const named = upload.parts?.fileName;
  const multipart = multipartBody([
    ...(named === undefined ? [] : [{ name: named, value: body.fileName }]),
    {
      name: upload.file,
      fileName: body.fileName,
      contentType: body.file.contentType,
      content: body.file.stream,
    },
  ]);
  const response = await send(call, upload, {
    method: 'POST',
    body: multipart.body,
    headers: { 'content-type': multipart.contentType },
  });
  return readFields(
    part.fields,
    await answered(part, { spec: upload, response, call }, 'attachment'),
  );
}

/**
 * An attachment's content, streamed from the end system as it arrives.
 *
 * @internal
 */
export async function downloadAttachment<S>(call: RestCall<S>, contentUri: string) {
  // A URI elsewhere is a 400: the platform cannot make the connector fetch another origin with the session's
  // credentials.
  const path = pathUnder(contentUri, call.baseUrl);
  if (path === undefined)
    throw new ValidationError("'contentUri' is not an attachment of this end system");
  const response = await send(call, { path }, { method: 'GET' });
  return response.body ?? new Uint8Array();
}

/**
 * Deletes an attachment: `{attachmentId}` in the declared path is the platform's attachment id.
 *
 * @internal
 */
export async function deleteAttachment<S>(
  part: Attachments<S>,
  call: RestCall<S>,
  attachmentId: string,
) {
  const declared = part.spec.delete;
  if (declared === undefined)
    throw new ValidationError('Attachments cannot be deleted in this end system');
  await send(call, asRequest(declared), { method: 'DELETE', extraIds: { attachmentId } });
}
