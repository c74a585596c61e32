import { formatJavaDate, parseJavaDate, type PlatformOperationName } from '@connector-sdk/core';
import type { PlatformSimulator } from '../platform-simulator.js';
import type { ConformanceCheck } from './check-helpers.js';
import { ConformanceFailure } from './conformance-failure.js';
import type { ConformanceRun } from './conformance-run.js';
import type { DeclaredOperation } from './declared-operations.js';
import type { RoundTripOptions } from './round-trip-options.js';
import {
  UNLISTED,
  callDeclared,
  expectShape,
  noneServed,
  pathOf,
  scope,
} from './platform-check-helpers.js';

// Checks that write to the end system and read back what they wrote: only with `platform.roundTrip`, which
// says where they may write and what. A connector can answer every operation in the documented shape and
// still store a file corrupted or change other fields than it was sent; only a round trip shows it.

const NOT_ALLOWED =
  'the kit writes to the end system only when told where and what: give platform: { roundTrip: { create, update } } (--round-trip <file> in the CLI), in a test project';

/** The file the attachment check uploads: every byte value, a length no buffer size divides. */
export function roundTripFile(size = 100_003): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + (i >> 8) + 7) % 256;
  return bytes;
}

/** Where the round trip writes: a project, an entity type, and the entity type's metadata. */
interface Place {
  readonly projectId: string;
  readonly entityTypeId: string;
  readonly type: Readonly<Record<string, unknown>>;
}

type Declared = ReadonlyMap<PlatformOperationName, DeclaredOperation>;

/** What the round trip needs, or why it cannot run. */
async function placeOf(
  run: ConformanceRun,
  platform: PlatformSimulator,
  declared: Declared,
): Promise<Place | string> {
  const where = await scope(run, platform, declared);
  if (where === undefined)
    return 'no project and entity type to write in: give platform: { projectId, entityTypeId }, or declare platform.projects and platform.entityTypes';
  const typeRoute = declared.get('entityType');
  const type =
    typeRoute === undefined
      ? {}
      : (expectShape(
          'entityType',
          await callDeclared(
            platform,
            typeRoute,
            { projectId: where.projectId },
            { entityTypeId: where.entityTypeId },
          ),
        ) as Record<string, unknown>);
  return { ...where, type };
}

/** A name the entity type declares in `<part>.fieldNameInfo`, or the documented default. */
function declaredName(type: Readonly<Record<string, unknown>>, part: string, name: string) {
  const info = (type[part] as { fieldNameInfo?: Record<string, unknown> } | undefined)
    ?.fieldNameInfo;
  const value = info?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Runs `use` with an entity to write on: `platform.entityId`, else one the kit creates from
 * `roundTrip.create` and deletes afterwards, whatever `use` did.
 */
async function withEntity<T>(
  run: ConformanceRun,
  platform: PlatformSimulator,
  input: {
    readonly declared: Declared;
    readonly place: Place;
    readonly roundTrip: RoundTripOptions;
  },
  use: (entityId: string) => Promise<T>,
): Promise<T | string> {
  const { declared, place, roundTrip } = input;
  const given = run.options.platform?.entityId;
  if (given !== undefined) return use(given);
  const create = declared.get('createEntity');
  if (create === undefined)
    return noneServed(run, 'no platform.createEntity, and no platform.entityId is given');
  const created = await platform.call({
    method: create.method,
    path: pathOf(create.pattern, { entityTypeId: place.entityTypeId }),
    query: { projectId: place.projectId },
    body: { fields: roundTrip.create },
  });
  const entity = expectShape('createEntity', created) as { fields: Record<string, unknown> };
  const idField =
    roundTrip.idField ?? declaredName(place.type, 'fieldNameInfo', 'idFieldName') ?? 'id';
  const id = entity.fields[idField];
  if (typeof id !== 'string' && typeof id !== 'number')
    throw new ConformanceFailure(
      `platform.createEntity answered no id under '${idField}' (the fields it answered: ${Object.keys(entity.fields).join(', ') || 'none'}): answer the new entity's id, or name its field in roundTrip.idField.`,
    );
  try {
    return await use(String(id));
  } finally {
    const remove = declared.get('deleteEntity');
    if (remove !== undefined)
      await platform.call({
        method: remove.method,
        path: pathOf(remove.pattern, { entityTypeId: place.entityTypeId, entityId: String(id) }),
        query: {
          projectId: place.projectId,
          deletionType: roundTrip.deletionType ?? 'SOFT_DELETE',
        },
      });
  }
}

/** A field the entity type declares: its id, data type and date pattern. */
interface DeclaredField {
  readonly id?: unknown;
  readonly internalName?: unknown;
  readonly dataType?: unknown;
  readonly dateFormat?: unknown;
}

/**
 * Whether a value came back as it was sent: dates by the instant they name (in the field's declared pattern),
 * lists as the same items in any order, numbers and their text alike, everything else as JSON.
 */
function sameValue(
  sent: unknown,
  back: unknown,
  field: DeclaredField | undefined,
  timeZone: string,
) {
  if (sent === back) return true;
  const pattern = typeof field?.dateFormat === 'string' ? field.dateFormat : undefined;
  if (pattern !== undefined && typeof sent === 'string' && typeof back === 'string') {
    try {
      return (
        parseJavaDate(sent, pattern, timeZone).getTime() ===
        parseJavaDate(back, pattern, timeZone).getTime()
      );
    } catch {
      return false;
    }
  }
  if (Array.isArray(sent) && Array.isArray(back))
    return (
      sent.length === back.length &&
      [...sent].map(String).sort().join('\u0000') === [...back].map(String).sort().join('\u0000')
    );
  if (typeof sent === 'number' || typeof back === 'number') return String(sent) === String(back);
  return JSON.stringify(sent) === JSON.stringify(back);
}

/** The fields of `sent` that came back otherwise, as "'field': sent … read …". */
function differences(
  sent: Readonly<Record<string, unknown>>,
  back: Readonly<Record<string, unknown>>,
  input: { readonly type: Readonly<Record<string, unknown>>; readonly timeZone: string },
): string[] {
  const declared = Array.isArray(input.type.fields) ? (input.type.fields as DeclaredField[]) : [];
  return Object.entries(sent)
    .filter(([name, value]) => {
      const field = declared.find((item) => item.id === name || item.internalName === name);
      return !sameValue(value, back[name], field, input.timeZone);
    })
    .map(
      ([name, value]) =>
        `'${name}': sent ${JSON.stringify(value)}, read ${back[name] === undefined ? 'nothing' : JSON.stringify(back[name])}`,
    );
}

/** The first offset where two byte arrays differ, or -1 when they are equal. */
function firstDifference(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : length;
}

const hex = (bytes: Uint8Array, at: number) =>
  [...bytes.subarray(at, at + 8)].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');

/** Why a round trip cannot run here, or what it needs. */
async function prepare(
  run: ConformanceRun,
  needs: readonly PlatformOperationName[],
): Promise<
  | { readonly skipped: string }
  | { platform: PlatformSimulator; declared: Declared; place: Place; roundTrip: RoundTripOptions }
> {
  const declared = run.platformOperations?.routes;
  if (declared === undefined) return { skipped: UNLISTED };
  const missing = needs.filter((name) => !declared.has(name));
  if (missing.length > 0)
    return {
      skipped: noneServed(run, `no ${missing.map((name) => `platform.${name}`).join(', ')}`),
    };
  const roundTrip = run.options.platform?.roundTrip;
  if (roundTrip === undefined) return { skipped: NOT_ALLOWED };
  const platform = run.simulator();
  const place = await placeOf(run, platform, declared);
  if (typeof place === 'string') return { skipped: place };
  return { platform, declared, place, roundTrip };
}

/** The checks that write to the end system and read back what they wrote. */
export const roundTripChecks: readonly ConformanceCheck[] = [
  {
    id: 'platform.entity-round-trip',
    name: 'an entity created, changed and commented on reads back as it was written',
    async run(run) {
      const ready = await prepare(run, ['createEntity', 'getEntity', 'updateEntity']);
      if ('skipped' in ready) return ready;
      const { platform, declared, place, roundTrip } = ready;
      if (run.options.platform?.entityId !== undefined)
        return {
          skipped: 'platform.entityId names an entity: the round trip creates one of its own',
        };
      const infoRoute = declared.get('serverInfo');
      const timeZone =
        infoRoute === undefined
          ? 'UTC'
          : ((
              expectShape('serverInfo', await callDeclared(platform, infoRoute)) as {
                timeZone?: string;
              }
            ).timeZone ?? 'UTC');
      const read = async (entityId: string) =>
        (
          expectShape(
            'getEntity',
            await callDeclared(
              platform,
              declared.get('getEntity') as DeclaredOperation,
              { projectId: place.projectId, entityTypeId: place.entityTypeId },
              { entityId },
            ),
          ) as { fields: Record<string, unknown> }
        ).fields;
      const notRun: string[] = [];
      const outcome = await withEntity(run, platform, ready, async (entityId) => {
        const created = differences(roundTrip.create, await read(entityId), { ...place, timeZone });
        if (created.length > 0)
          throw new ConformanceFailure(
            `Entity '${entityId}', just created, reads back otherwise: ${created.join('; ')}. Map each field both ways with the same rules (ids, dates in the declared dateFormat, lists).`,
          );
        const update = declared.get('updateEntity') as DeclaredOperation;
        expectShape(
          'updateEntity',
          await platform.call({
            method: update.method,
            path: pathOf(update.pattern, { entityTypeId: place.entityTypeId, entityId }),
            query: { projectId: place.projectId },
            body: { fields: roundTrip.update },
          }),
        );
        const after = await read(entityId);
        // The platform sends only what changed: what it did not send must stay as it was.
        const kept = Object.fromEntries(
          Object.entries(roundTrip.create).filter(([name]) => !(name in roundTrip.update)),
        );
        const changed = [
          ...differences(roundTrip.update, after, { ...place, timeZone }),
          ...differences(kept, after, { ...place, timeZone }).map(
            (difference) => `${difference} (not sent with the change)`,
          ),
        ];
        if (changed.length > 0)
          throw new ConformanceFailure(
            `Entity '${entityId}', just changed, reads back otherwise: ${changed.join('; ')}. Set only the fields the platform sends, each mapped as it is read.`,
          );
        const add = declared.get('addComment');
        const list = declared.get('getComments');
        if (add === undefined || list === undefined) {
          notRun.push('the comment (it needs platform.addComment and platform.getComments)');
          return undefined;
        }
        const bodyName = declaredName(place.type, 'comments', 'bodyFieldName') ?? 'body';
        const text = `conformance comment ${entityId} ✓`;
        expectShape(
          'addComment',
          await platform.call({
            method: add.method,
            path: pathOf(add.pattern, { entityTypeId: place.entityTypeId, entityId }),
            query: { projectId: place.projectId },
            body: { [bodyName]: text },
          }),
        );
        const comments = expectShape(
          'getComments',
          await callDeclared(
            platform,
            list,
            { projectId: place.projectId, startIndex: '0', maxResults: '100', afterTime: 'null' },
            { entityTypeId: place.entityTypeId, entityId },
          ),
        ) as { comments: Record<string, unknown>[] };
        if (!comments.comments.some((comment) => comment[bodyName] === text))
          throw new ConformanceFailure(
            `A comment added to entity '${entityId}' under '${bodyName}' (the entity type's comments.fieldNameInfo.bodyFieldName) is not among its comments read back (${comments.comments.length} read): answer comments under the declared names, and the body as it was sent.`,
          );
        return undefined;
      });
      if (typeof outcome === 'string') return { skipped: outcome };
      return notRun.length === 0 ? undefined : { note: `not run: ${notRun.join('; ')}` };
    },
  },
  {
    id: 'platform.attachment-round-trip',
    name: 'an uploaded attachment reads back byte for byte',
    async run(run) {
      const ready = await prepare(run, ['createAttachment', 'attachmentContent']);
      if ('skipped' in ready) return ready;
      const { platform, declared, place } = ready;
      const file = roundTripFile();
      const fileName = 'conformance-ü-é-✓.bin';
      const outcome = await withEntity(run, platform, ready, async (entityId) => {
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
  },
  {
    id: 'platform.history-polling',
    name: 'history read window by window while the entity changes misses no change and repeats none',
    async run(run) {
      const ready = await prepare(run, ['createEntity', 'updateEntity', 'entityHistory']);
      if ('skipped' in ready) return ready;
      const { platform, declared, place, roundTrip } = ready;
      if (run.options.platform?.entityId !== undefined)
        return {
          skipped: 'platform.entityId names an entity: the polling check changes one of its own',
        };
      const infoRoute = declared.get('serverInfo');
      const timeZone =
        infoRoute === undefined
          ? 'UTC'
          : ((
              expectShape('serverInfo', await callDeclared(platform, infoRoute)) as {
                timeZone?: string;
              }
            ).timeZone ?? 'UTC');
      const pattern =
        (place.type.history as { revisionDateFormat?: string } | undefined)?.revisionDateFormat ??
        "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
      // Each change sets the fields of `update` to their created values and back, so each is a real change.
      const back = Object.fromEntries(
        Object.keys(roundTrip.update).map((name) => [name, roundTrip.create[name] ?? null]),
      );
      const update = declared.get('updateEntity') as DeclaredOperation;
      const history = declared.get('entityHistory') as DeclaredOperation;
      const outcome = await withEntity(run, platform, ready, async (entityId) => {
        let changes = 0;
        const change = async () => {
          expectShape(
            'updateEntity',
            await platform.call({
              method: update.method,
              path: pathOf(update.pattern, { entityTypeId: place.entityTypeId, entityId }),
              query: { projectId: place.projectId },
              body: { fields: changes % 2 === 0 ? roundTrip.update : back },
            }),
          );
          changes++;
        };
        // From a minute before, so that an end system's clock a little behind still counts every change.
        let since = formatJavaDate(Date.now() - 60_000, pattern, timeZone);
        await change();
        await change();
        const seen = new Set<string>();
        const repeated: string[] = [];
        // The platform's way: windows of one revision, a change between two windows; then a poll from the
        // newest revision time it read, until a poll brings nothing new.
        for (let poll = 0; poll < 3; poll++) {
          const walk = new Set<string>();
          let nextPageLink: string | undefined;
          let newest = since;
          for (let window = 0; window < 50; window++) {
            const answer = expectShape(
              'entityHistory',
              await callDeclared(
                platform,
                history,
                {
                  projectId: place.projectId,
                  entityId,
                  since,
                  startIndex: String(window),
                  maxResults: '1',
                  ...(nextPageLink === undefined ? {} : { nextPageLink }),
                },
                { entityTypeId: place.entityTypeId },
              ),
            ) as {
              nextPageLink?: string;
              revisions: { entityId: string; revisionId: string; revisionDateTime: string }[];
            };
            for (const revision of answer.revisions) {
              if (String(revision.entityId) !== entityId) continue;
              const key = String(revision.revisionId);
              if (walk.has(key)) repeated.push(key);
              walk.add(key);
              seen.add(key);
              newest = revision.revisionDateTime;
            }
            nextPageLink = answer.nextPageLink;
            if (answer.revisions.length < 1) break;
            if (poll === 0 && window < 2) await change();
          }
          since = newest;
        }
        if (repeated.length > 0)
          throw new ConformanceFailure(
            `Entity history read one revision a window while the entity changed gave revision ${repeated.map((id) => `'${id}'`).join(', ')} twice in one walk: cut windows from a list in the platform's order (oldest first), so that a change made meanwhile comes last, and never page the end system's newest-first list by offset.`,
          );
        if (seen.size < changes)
          throw new ConformanceFailure(
            `The kit changed entity '${entityId}' ${changes} times, and its history read window by window, then polled from the newest revision read, showed ${seen.size} revision${seen.size === 1 ? '' : 's'} of it: the platform would miss ${changes - seen.size} change${changes - seen.size === 1 ? '' : 's'}. Answer every revision at or after since, in the platform's order, and cut windows from that list.`,
          );
        return undefined;
      });
      return typeof outcome === 'string' ? { skipped: outcome } : undefined;
    },
  },
  {
    id: 'platform.own-change-identity',
    name: "the kit's own change shows in history as made by the integration user, as notUpdatedByUser names it",
    async run(run) {
      const ready = await prepare(run, ['updateEntity', 'entityHistory', 'serverInfo']);
      if ('skipped' in ready) return ready;
      const { platform, declared, place, roundTrip } = ready;
      const info = expectShape(
        'serverInfo',
        await callDeclared(platform, declared.get('serverInfo') as DeclaredOperation),
      ) as {
        timeZone?: string;
        integrationUserInfo: { fieldInternalName: string; userDataType: string };
      };
      const { fieldInternalName, userDataType } = info.integrationUserInfo;
      const entry = platform.config.find((item) => item.key === fieldInternalName);
      if (entry === undefined)
        return {
          skipped: `the configuration has no '${fieldInternalName}', the field server info names the integration user by`,
        };
      const integrationUser = entry.value;
      const shown = entry.sensitive
        ? `the value of '${fieldInternalName}'`
        : `'${integrationUser}'`;
      const pattern =
        (place.type.history as { revisionDateFormat?: string } | undefined)?.revisionDateFormat ??
        "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
      const timeZone = info.timeZone ?? 'UTC';
      const outcome = await withEntity(run, platform, ready, async (entityId) => {
        // From a minute before the change, so that an end system's clock a little behind still counts it.
        const since = formatJavaDate(Date.now() - 60_000, pattern, timeZone);
        const update = declared.get('updateEntity') as DeclaredOperation;
        expectShape(
          'updateEntity',
          await platform.call({
            method: update.method,
            path: pathOf(update.pattern, { entityTypeId: place.entityTypeId, entityId }),
            query: { projectId: place.projectId },
            body: { fields: roundTrip.update },
          }),
        );
        const history = declared.get('entityHistory') as DeclaredOperation;
        const answer = expectShape(
          'entityHistory',
          await callDeclared(
            platform,
            history,
            { projectId: place.projectId, entityId, since, startIndex: '0', maxResults: '100' },
            { entityTypeId: place.entityTypeId },
          ),
        ) as { revisions: { entityId?: string; updatedBy?: unknown }[] };
        const own = answer.revisions.filter((revision) => String(revision.entityId) === entityId);
        if (own.length === 0)
          throw new ConformanceFailure(
            `After the kit changed entity '${entityId}', its history since ${since} has no revision of it: the platform recovers changes from history, and would miss this one.`,
          );
        const authors = [...new Set(own.map((revision) => String(revision.updatedBy)))];
        if (!authors.includes(integrationUser))
          throw new ConformanceFailure(
            `The kit's own change to entity '${entityId}' shows in history as made by ${authors.map((author) => `'${author}'`).join(', ')}, not by the integration user (${shown}, the configuration field server info names, as ${userDataType}). ` +
              `The platform asks for history with notUpdatedByUser set to that value and compares it with updatedBy: named any other way, its own changes are never filtered out and a sync echoes its own writes back. Answer updatedBy as the user's ${userDataType === 'EMAIL_AS_USER' ? 'email' : 'username'}.`,
          );
        return undefined;
      });
      return typeof outcome === 'string' ? { skipped: outcome } : undefined;
    },
  },
];
