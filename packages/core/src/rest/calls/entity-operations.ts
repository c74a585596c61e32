// The entity operations of a declared entity type: get, create, update, delete and search, each the declared
// end-system requests with the mappings applied both ways.
import { EndSystemError, ValidationError } from '../../errors/errors.js';
import { readWindow, type PageWindow } from '../../platform/paging.js';
import { asRequest, jsonOf, parseItem, picked, send } from './endpoint.js';
import { listAll, pageSource, pollSource } from './entity-list.js';
import { pollWindow } from '../../platform/polling/poll-window.js';
import { searchOrder, translateSearch, type SearchBody } from './entity-search.js';
import type { DeleteSpec } from '../declaration/entity-spec.js';
import type { ListSpec, RestCall, WriteSpec } from '../declaration/request-spec.js';
import { readFields, writeFields } from '../mapping/field-mapping.js';
import { mergeItems, readPath } from '../mapping/field-path.js';
import type { RestEntity } from '../rest-entity.js';

type Fields = Record<string, unknown>;
type Entity<S> = RestEntity<S>;

/** The 400 of an operation the entity type does not declare. */
const cannot = <S>(entity: Entity<S>, call: RestCall<S>, what: string) =>
  new ValidationError(
    `${entity.spec.name} (${call.ids.entityTypeId}) cannot be ${what} in this end system`,
  );

/**
 * Reads one item of the end system, by the call's entity id.
 *
 * @internal
 */
export async function readItem<S>(entity: Entity<S>, call: RestCall<S>): Promise<unknown> {
  return parseItem(entity.schema, await readRaw(entity, call), entity.spec.name);
}

/** One item as the end system answered it (picked out by the declaration's `answer`), before its schema. */
async function readRaw<S>(entity: Entity<S>, call: RestCall<S>): Promise<unknown> {
  const get = entity.spec.get;
  if (get === undefined) throw cannot(entity, call, 'read');
  if (typeof get === 'function') return get(call);
  const spec = asRequest(get);
  const answer = await jsonOf(await send(call, spec, { method: 'GET' }));
  const pick = 'answer' in spec ? spec.answer : undefined;
  return pick === undefined ? answer : picked(() => pick(answer, call), entity.spec.name);
}

/** The raw item, once its schema accepts it. */
async function readChecked<S>(entity: Entity<S>, call: RestCall<S>): Promise<unknown> {
  const raw = await readRaw(entity, call);
  parseItem(entity.schema, raw, entity.spec.name);
  return raw;
}

/** The platform's entity of an item, with only the fields of `fieldList` when it names some. */
export function entityOf<S>(entity: Entity<S>, item: unknown, fieldList?: readonly string[]) {
  return { fields: readFields(entity.fields, item, new Set(fieldList ?? [])) };
}

async function written<S>(
  entity: Entity<S>,
  call: RestCall<S>,
  write: { readonly spec: WriteSpec<S, unknown>; readonly response: Response },
): Promise<unknown> {
  const { answer = 'item' } = write.spec;
  if (answer === 'none') return readItem(entity, call);
  const body = await jsonOf(write.response);
  if (answer === 'id') {
    const id = readPath(body, entity.idSteps);
    if (typeof id !== 'string' && typeof id !== 'number')
      throw new EndSystemError(
        `The end system answered a new ${entity.spec.name} without its id at '${entity.idSteps.join('.')}'`,
      );
    return readItem(entity, { ...call, ids: { ...call.ids, id: String(id) } });
  }
  const item = answer === 'item' ? body : picked(() => answer(body, call), entity.spec.name);
  return parseItem(entity.schema, item, entity.spec.name);
}

/** Sends a write (its body the declaration's, else the item) and answers the item written. */
async function sendWrite<S>(
  entity: Entity<S>,
  call: RestCall<S>,
  write: {
    readonly spec: WriteSpec<S, unknown>;
    readonly change: Fields;
    readonly item: Fields;
    readonly method: 'POST' | 'PUT' | 'PATCH';
  },
): Promise<unknown> {
  const { spec, change, item, method } = write;
  const json = spec.body === undefined ? item : spec.body({ change, item }, call);
  const response = await send(call, spec, { method, json });
  return written(entity, call, { spec, response });
}

/** Checks and converts the platform's fields, and runs the declaration's own check. */
async function changeOf<S>(entity: Entity<S>, call: RestCall<S>, sent: Fields): Promise<Fields> {
  const { entityTypeId: typeId, id } = call.ids;
  const change = writeFields(entity.fields, sent, {
    typeId,
    idField: entity.idField ?? '',
    entityId: id,
  });
  await entity.spec.check?.({ change, id }, call);
  return change;
}

/**
 * Creates an item from the platform's fields and answers it as the platform reads it.
 *
 * @internal
 */
export async function createItem<S>(
  entity: Entity<S>,
  call: RestCall<S>,
  sent: Fields,
): Promise<unknown> {
  const create = entity.spec.create;
  if (create === undefined) throw cannot(entity, call, 'created');
  const change = await changeOf(entity, call, sent);
  if (typeof create === 'function')
    return parseItem(entity.schema, await create({ change }, call), entity.spec.name);
  const spec = asRequest(create);
  const item =
    'defaults' in spec && spec.defaults !== undefined ? mergeItems(spec.defaults, change) : change;
  return sendWrite(entity, call, { spec, change, item, method: 'POST' });
}

/**
 * Changes an item by the platform's fields (a replace reads it first and sends it whole) and answers it.
 *
 * @internal
 */
export async function updateItem<S>(
  entity: Entity<S>,
  call: RestCall<S>,
  sent: Fields,
): Promise<unknown> {
  const update = entity.spec.update;
  if (update === undefined) throw cannot(entity, call, 'updated');
  const change = await changeOf(entity, call, sent);
  if (typeof update === 'function')
    return parseItem(entity.schema, await update({ change }, call), entity.spec.name);
  const spec = asRequest(update);
  const replace = 'replace' in spec && spec.replace === true;
  // A replace must send the whole item: the end system drops what it leaves out.
  // Over the item as the end system answered it, checked but not stripped: keys its schema does not name stay.
  const item = replace ? mergeItems(await readChecked(entity, call), change) : change;
  return sendWrite(entity, call, { spec, change, item, method: replace ? 'PUT' : 'PATCH' });
}

/**
 * Deletes an item (`SOFT_DELETE`), or archives it as the declaration says (`ARCHIVE`).
 *
 * @internal
 */
export async function deleteItem<S>(
  entity: Entity<S>,
  call: RestCall<S>,
  deletionType: 'SOFT_DELETE' | 'ARCHIVE',
): Promise<void> {
  const declared = entity.spec.delete;
  const spec: DeleteSpec<S> | undefined = declared === undefined ? undefined : asRequest(declared);
  if (deletionType === 'ARCHIVE') {
    if (spec?.archive === undefined) throw cannot(entity, call, 'archived');
    await updateItem(entity, call, { ...spec.archive });
    return;
  }
  if (spec === undefined) throw cannot(entity, call, 'deleted');
  await send(call, spec, { method: 'DELETE' });
}

/** What a search reads: the platform's window and body, and the server info's cap. */
export interface SearchRequest {
  readonly window: PageWindow & { readonly nextPageLink?: string | undefined };
  readonly body: SearchBody;
  readonly maxResults: number;
  /** The server info's time zone. */
  readonly timeZone: string;
}

/**
 * Answers the platform's search: its query translated through the declared table, then exactly the window the
 * platform asks for, paged the end system's way (or over the whole list, filtered and sorted in memory).
 *
 * @internal
 */
export async function searchItems<S>(entity: Entity<S>, call: RestCall<S>, search: SearchRequest) {
  const declared = entity.spec.search;
  if (declared === undefined) throw cannot(entity, call, 'searched');
  const table = {
    typeId: call.ids.entityTypeId,
    fields: new Map(entity.fields.map((field) => [field.id, field])),
    idField: entity.idField ?? '',
    updated: entity.spec.updated,
    timeZone: search.timeZone,
    spec: declared as never,
  };
  // Checked before the end system is called: a search it cannot answer is a 400 at once.
  const translated = translateSearch(table, search.body.query);
  const order = searchOrder(table, search.body);
  const listed = declared.request ?? entity.spec.list;
  const list: ListSpec<S> = asRequest(listed as ListSpec<S> | string);
  const options = { maxResults: search.maxResults };
  const parsed = (item: unknown) =>
    entityOf(entity, parseItem(entity.schema, item, entity.spec.name));
  if (translated.kind === 'query' && translated.poll !== undefined && declared.poll !== undefined) {
    const { since = 0, until } = translated.poll;
    const updated = entity.fields.find((field) => field.id === entity.spec.updated);
    if (updated === undefined) throw new TypeError(`${entity.spec.name}: a poll needs 'updated'`);
    const { items, ...paging } = await pollWindow(
      { ...search.window, since, until },
      pollSource(call, list, {
        query: translated.params,
        since: declared.poll.since,
        exclusive: declared.poll.exclusive === true,
      }),
      {
        updated: (item) => Number(updated.order(updated.read(item))),
        id: (item) => String(readPath(item, entity.idSteps)),
        overlapMs: declared.poll.overlapMs ?? 1_000,
        maxResults: search.maxResults,
      },
    );
    return { ...paging, entities: items.map(parsed) };
  }
  if (translated.kind === 'query') {
    if (order !== undefined && declared.sort !== undefined)
      Object.assign(translated.params, declared.sort(order));
    const items = await readWindow(
      search.window,
      pageSource(call, list, translated.params),
      options,
    );
    return { nextPageLinkSupported: false, entities: items.map(parsed) };
  }
  const entities = await readWindow(
    search.window,
    {
      all: async () =>
        sortedMatches(entity, { items: await listAll(call, list), keep: translated.keep, order }),
    },
    options,
  );
  return { nextPageLinkSupported: false, entities };
}

function sortedMatches<S>(
  entity: Entity<S>,
  found: {
    readonly items: readonly unknown[];
    readonly keep: (fields: Fields) => boolean;
    readonly order: { readonly field: string; readonly direction: 'ASC' | 'DESC' } | undefined;
  },
) {
  const entities = found.items
    .map((item) => entityOf(entity, parseItem(entity.schema, item, entity.spec.name)))
    .filter((one) => found.keep(one.fields));
  const { order } = found;
  if (order === undefined) return entities;
  const name =
    order.field === 'ENTITY_ID'
      ? entity.idField
      : order.field === 'CREATED_UPDATED_TIME'
        ? entity.spec.updated
        : order.field;
  const field = entity.fields.find((one) => one.id === name);
  if (field === undefined) return entities;
  const sign = order.direction === 'ASC' ? 1 : -1;
  const key = (one: { fields: Fields }) => field.order(one.fields[field.id]);
  return entities.sort((a, b) => (key(a) < key(b) ? -sign : key(a) > key(b) ? sign : 0));
}
