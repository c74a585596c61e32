// A connector written without the SDK: a plain node:http server over an in-memory issue tracker
// (plain-tracker.ts), serving the platform's contract (DESIGN.md §2 and PLATFORM-OPERATIONS.md in the shared
// folder) by hand. It exists to keep the conformance kit honest: the kit judges the contract, not how a
// connector was built, so a correct connector written any other way must pass every check that can run
// against its URL. Nothing here comes from `@connector-sdk/*`; where this file and the contract disagree,
// this file is wrong.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  PRIORITIES,
  PROJECTS,
  Tracker,
  USERS,
  type Attachment,
  type Comment,
  type Fields,
  type Issue,
  type Session,
} from './plain-tracker.js';

const BASE = '/sdk/api/1.0';
/** The page-size cap server info announces; a larger `maxResults` is a 400. */
const MAX_RESULTS = 100;
/** Every date-time this connector writes and reads: what `toISOString` writes (server info says UTC). */
const DATE_TIME = "yyyy-MM-dd'T'HH:mm:ss.SSSXXX";
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}(?:Z|[+-]\d{2}:\d{2})$/;
const MAX_BODY = 8 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
const bad = (message: string) => new HttpError(400, 'INVALID_INPUT', message);
const notFound = (message: string) => new HttpError(404, 'NOT_FOUND', message);

/** What each writable field accepts; `null` clears an optional one. */
const WRITABLE: Readonly<Record<string, (value: unknown) => boolean>> = {
  summary: (value) => typeof value === 'string' && value !== '',
  description: (value) => typeof value === 'string',
  priority: (value) => typeof value === 'string' && PRIORITIES.includes(value),
  assignee: (value) => USERS.some((user) => user.username === value),
  labels: (value) => Array.isArray(value) && value.every((label) => typeof label === 'string'),
  dueDate: (value) =>
    typeof value === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(value) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
};
const ENTITY_TYPE = {
  id: 'issue',
  name: 'Issue',
  multiStepUpdate: 'NO_SUB_STEPS',
  recovery: { type: 'HISTORY_BASED' },
  history: {
    type: 'FIELD_BASED',
    revisionDateFormat: DATE_TIME,
    revisionUserDataType: 'USERNAME_AS_USER',
  },
  searchEntityInfo: {
    sortableFields: ['CREATED_UPDATED_TIME', 'ENTITY_ID'],
    dateTimeFormat: DATE_TIME,
  },
  comments: {
    createUpdateDateFormat: DATE_TIME,
    fieldNameInfo: {
      idFieldName: 'commentId',
      bodyFieldName: 'body',
      titleFieldName: 'title',
      createdByFieldName: 'createdBy',
      createdDateFieldName: 'createdDate',
    },
  },
  attachments: {
    createUpdateDateFormat: DATE_TIME,
    fieldNameInfo: {
      idFieldName: 'attachmentId',
      contentUriFieldName: 'contentUri',
      fileNameFieldName: 'fileName',
    },
  },
  fields: [
    { id: 'id', name: 'Key', dataType: 'TEXT' },
    { id: 'summary', name: 'Summary', dataType: 'TEXT' },
    { id: 'description', name: 'Description', dataType: 'TEXT' },
    { id: 'priority', name: 'Priority', dataType: 'LOOKUP' },
    { id: 'assignee', name: 'Assignee', dataType: 'USERNAME_AS_USER' },
    { id: 'labels', name: 'Labels', dataType: 'TEXT' },
    { id: 'dueDate', name: 'Due date', dataType: 'DATE', dateFormat: 'yyyy-MM-dd' },
    { id: 'updated', name: 'Updated', dataType: 'DATE_TIME', dateFormat: DATE_TIME },
  ],
};

/** The query of one request, read as the contract says: text in, checked, a 400 naming the parameter. */
class Query {
  constructor(readonly search: URLSearchParams) {}
  optional(name: string): string | undefined {
    const value = this.search.get(name);
    return value === null || value === '' ? undefined : value;
  }
  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw bad(`The query parameter ${name} is required`);
    return value;
  }
  whole(name: string, min: number): number {
    const text = this.required(name);
    if (!/^\d{1,9}$/.test(text) || Number(text) < min)
      throw bad(`The query parameter ${name} must be a whole number of at least ${min}`);
    return Number(text);
  }
  /** `startIndex` and `maxResults`, the page size capped by server info. */
  paging(): { start: number; max: number } {
    const start = this.whole('startIndex', 0);
    const max = this.whole('maxResults', 1);
    if (max > MAX_RESULTS)
      throw bad(`maxResults must be at most ${MAX_RESULTS}, the server info's maxResults`);
    return { start, max };
  }
  /** Exactly the window `startIndex`, `maxResults` asks for. */
  window<T>(all: readonly T[]): T[] {
    const { start, max } = this.paging();
    return all.slice(start, start + max);
  }
  /** A date in the declared pattern; `"null"` or absent is none. */
  date(name: string, required = false): number | undefined {
    const text = required ? this.required(name) : this.optional(name);
    if (text === undefined || text === 'null') return undefined;
    const at = Date.parse(text);
    if (!ISO.test(text) || Number.isNaN(at))
      throw bad(`The query parameter ${name} must be a date in the pattern ${DATE_TIME}`);
    return at;
  }
  oneOf<T extends string>(name: string, values: readonly T[], required = false): T | undefined {
    const text = required ? this.required(name) : this.optional(name);
    if (text !== undefined && !(values as readonly string[]).includes(text))
      throw bad(`The query parameter ${name} must be one of ${values.join(', ')}`);
    return text as T | undefined;
  }
}

interface Call {
  readonly params: Readonly<Record<string, string>>;
  readonly query: Query;
  readonly session: Session;
  readonly contentType: string;
  readonly body: () => Promise<Buffer>;
}
interface Answer {
  readonly status?: number;
  readonly json?: unknown;
  readonly text?: string;
}
interface Route {
  readonly method: string;
  readonly path: string;
  /** Discover, initialize and the connector metadata (the form shown before any login) need no session. */
  readonly open?: boolean;
  readonly handle: (call: Call) => Answer | Promise<Answer>;
}

const iso = (at: number) => new Date(at).toISOString();

async function jsonBody(call: Call): Promise<Record<string, unknown>> {
  if (!/^application\/json\b/i.test(call.contentType))
    throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the body as application/json');
  let body: unknown;
  try {
    body = JSON.parse((await call.body()).toString('utf8'));
  } catch {
    throw bad('The body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw bad('The body must be a JSON object');
  return body as Record<string, unknown>;
}

/** The fields of a create or update body, each known, writable and of its type. */
async function fieldsOf(call: Call, creating: boolean): Promise<Fields> {
  const { fields } = await jsonBody(call);
  if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
    throw bad('The body must hold fields: { <field id>: value }');
  for (const [name, value] of Object.entries(fields)) {
    const accepts = WRITABLE[name];
    if (accepts === undefined) throw bad(`The field '${name}' is unknown or cannot be written`);
    if (!(value === null ? name !== 'summary' : accepts(value)))
      throw bad(`The field '${name}' cannot take that value`);
  }
  if (creating && !WRITABLE.summary?.((fields as Fields).summary))
    throw bad("A new issue needs a 'summary'");
  return fields as Fields;
}

/** Reads the platform's search query tree into a test of an issue's fields. */
function criteria(node: unknown): (fields: Fields) => boolean {
  if (typeof node !== 'object' || node === null) throw bad('Each search criteria is an object');
  const { field, condition, value, values, criterias } = node as Record<string, unknown>;
  const aliases: Record<string, string> = {
    '=': 'EQUALS',
    '!=': 'NOT_EQUALS',
    '>': 'GREATER_THAN',
  };
  const name = typeof condition === 'string' ? (aliases[condition] ?? condition.toUpperCase()) : '';
  if (name === 'AND' || name === 'NOT') {
    if (!Array.isArray(criterias) || criterias.length === 0) throw bad(`${name} needs criterias`);
    const parts = criterias.map(criteria);
    const all = (fields: Fields) => parts.every((part) => part(fields));
    return name === 'AND' ? all : (fields) => !all(fields);
  }
  if (typeof field !== 'string' || !ENTITY_TYPE.fields.some((known) => known.id === field))
    throw bad(`The search names an unknown field ${JSON.stringify(field)}`);
  const dated = field === 'updated' || field === 'dueDate';
  const order = (a: unknown, b: unknown): number | undefined => {
    const [x, y] = dated ? [Date.parse(String(a)), Date.parse(String(b))] : [a, b];
    if (typeof x === 'number' && typeof y === 'number')
      return Number.isNaN(x - y) ? undefined : x - y;
    return typeof x === 'string' && typeof y === 'string' ? x.localeCompare(y, 'en') : undefined;
  };
  const test = (pass: (sign: number) => boolean, wanted: unknown) => (fields: Fields) => {
    const own = fields[field];
    return (Array.isArray(own) ? own : [own]).some((item) => {
      const sign = order(item, wanted);
      return sign !== undefined && pass(sign);
    });
  };
  const tests: Record<string, (sign: number) => boolean> = {
    EQUALS: (sign) => sign === 0,
    NOT_EQUALS: (sign) => sign !== 0,
    GREATER_THAN: (sign) => sign > 0,
    GREATER_THAN_EQUALS: (sign) => sign >= 0,
    LESS_THAN: (sign) => sign < 0,
    LESS_THAN_EQUALS: (sign) => sign <= 0,
  };
  if (name === 'IN') {
    if (!Array.isArray(values)) throw bad('IN needs values');
    const each = values.map((item) => test(tests.EQUALS as (sign: number) => boolean, item));
    return (fields) => each.some((one) => one(fields));
  }
  const pass = tests[name];
  if (pass === undefined) throw bad(`Unknown search condition ${JSON.stringify(condition)}`);
  return test(pass, value);
}

/** The connector's routes, after the versioned base. */
function routes(tracker: Tracker): Route[] {
  const project = (id: string | undefined) => {
    if (id === undefined || !PROJECTS.some((known) => known.id === id))
      throw notFound(`No project '${id}'`);
    return id;
  };
  const issueType = (id: string | undefined) => {
    if (id !== ENTITY_TYPE.id) throw notFound(`No entity type '${id}'`);
  };
  /** An issue of the project (and type) the platform names, each of which may be "null" for any. */
  const issue = (id: string | undefined, projectId: string, typeId = 'issue') => {
    if (typeId !== 'null') issueType(typeId);
    const found = tracker.issues.get(id ?? '');
    if (found === undefined || (projectId !== 'null' && found.projectId !== project(projectId)))
      throw notFound(`No issue '${id}' in project '${projectId}'`);
    return found;
  };
  const entity = (found: Issue): { fields: Fields } => ({
    fields: { id: found.id, ...found.fields, updated: iso(found.updated) },
  });
  const attachment = (file: Attachment) => ({
    attachmentId: file.id,
    contentUri: file.id,
    fileName: file.fileName,
    size: file.bytes.length,
    createdBy: file.by,
    createdDate: iso(file.at),
  });
  const comment = (note: Comment) => ({
    commentId: note.id,
    body: note.body,
    ...(note.title === undefined ? {} : { title: note.title }),
    createdBy: note.by,
    createdDate: iso(note.at),
  });
  return [
    {
      method: 'GET',
      path: '/discover',
      open: true,
      handle: () => ({ json: { connectorName: 'plain-tracker', connectorVersion: '1.0.0' } }),
    },
    {
      method: 'GET',
      path: '/connector-metadata',
      open: true,
      handle: () => ({
        json: {
          enableFeatures: [],
          additionalMetadata: {
            userSearchOnUserNameSupported: true,
            userSearchOnEmailSupported: true,
          },
          fields: [
            { internalName: 'url', displayName: 'Tracker URL', required: true, fieldType: 'URL' },
            {
              internalName: 'username',
              displayName: 'User name',
              required: true,
              fieldType: 'TEXT_BOX',
            },
            {
              internalName: 'password',
              displayName: 'Password',
              required: true,
              fieldType: 'PASSWORD',
            },
          ],
        },
      }),
    },
    {
      method: 'GET',
      path: '/server-info',
      handle: () => ({
        json: {
          timeZone: 'UTC',
          locale: 'en_US',
          maxResults: MAX_RESULTS,
          integrationUserInfo: { fieldInternalName: 'username', userDataType: 'USERNAME_AS_USER' },
        },
      }),
    },
    { method: 'GET', path: '/projects', handle: ({ query }) => ({ json: query.window(PROJECTS) }) },
    {
      method: 'GET',
      path: '/entity-types',
      handle: ({ query }) => {
        project(query.required('projectId'));
        const { id, name } = ENTITY_TYPE;
        return {
          json: [
            {
              id,
              name,
              direction: 'BOTH',
              pollerType: 'ENTITY_WISE_HISTORY',
              isSoftDeleteSupported: true,
            },
          ],
        };
      },
    },
    {
      method: 'GET',
      path: '/entity-types/:entityTypeId',
      handle: ({ params, query }) => {
        const projectId = query.optional('projectId');
        if (projectId !== undefined) project(projectId);
        issueType(params.entityTypeId);
        return { json: ENTITY_TYPE };
      },
    },
    {
      method: 'GET',
      path: '/entities/:entityId',
      handle: ({ params, query }) => {
        const expand = (query.optional('expand') ?? '').split(',').filter((part) => part !== '');
        if (expand.some((part) => part !== 'ATTACHMENTS' && part !== 'LINKS'))
          throw bad('expand takes ATTACHMENTS and LINKS');
        const fieldList = (query.optional('fieldList') ?? '')
          .split(',')
          .filter((part) => part !== '');
        const typeId = query.required('entityTypeId');
        const found = issue(params.entityId, query.required('projectId'), typeId);
        const { fields } = entity(found);
        return {
          json: {
            fields:
              fieldList.length === 0
                ? fields
                : Object.fromEntries(
                    Object.entries(fields).filter(([name]) => fieldList.includes(name)),
                  ),
            ...(expand.includes('ATTACHMENTS') && {
              attachments: [...found.attachments.values()].map(attachment),
            }),
            ...(expand.includes('LINKS') && { links: [] }),
          },
        };
      },
    },
    {
      method: 'POST',
      path: '/entities/:entityTypeId',
      handle: async (call) => {
        const projectId = project(call.query.required('projectId'));
        issueType(call.params.entityTypeId);
        const fields = await fieldsOf(call, true);
        return { json: entity(tracker.create(projectId, fields, call.session.username)) };
      },
    },
    {
      method: 'PUT',
      path: '/entities/:entityTypeId/:entityId',
      handle: async (call) => {
        const { query, params } = call;
        const found = issue(params.entityId, query.required('projectId'), params.entityTypeId);
        if (query.optional('subStepNumber') !== undefined)
          throw bad('Issues have no sub-steps and cannot move between projects');
        const fields = await fieldsOf(call, false);
        return { json: entity(tracker.update(found, fields, call.session.username)) };
      },
    },
    {
      method: 'DELETE',
      path: '/entities/:entityTypeId/:entityId',
      handle: ({ params, query }) => {
        const projectId = query.required('projectId');
        query.oneOf('deletionType', ['SOFT_DELETE', 'ARCHIVE'], true);
        tracker.issues.delete(issue(params.entityId, projectId, params.entityTypeId).id);
        return { json: {} };
      },
    },
    {
      method: 'POST',
      path: '/entities/:entityTypeId/search',
      handle: async (call) => {
        const { query } = call;
        const projectId = project(query.required('projectId'));
        issueType(call.params.entityTypeId);
        const { start, max } = query.paging();
        const body = await jsonBody(call);
        const test = criteria(body.query);
        if (body.orderBy !== undefined && !Array.isArray(body.orderBy))
          throw bad('orderBy must be a list');
        const keys = [
          ...((body.orderBy as unknown[] | undefined) ?? []),
          { fieldName: 'updated' },
          { fieldName: 'id' },
        ].map((item) => {
          const { fieldName, direction = 'ASC' } = (item ?? {}) as Record<string, unknown>;
          const key =
            fieldName === 'ENTITY_ID'
              ? 'id'
              : fieldName === 'CREATED_UPDATED_TIME'
                ? 'updated'
                : fieldName;
          if (typeof key !== 'string' || (direction !== 'ASC' && direction !== 'DESC'))
            throw bad('orderBy takes { fieldName, direction: ASC | DESC }');
          return { key, sign: direction === 'ASC' ? 1 : -1 };
        });
        const compare = (a: Fields, b: Fields) => {
          for (const { key, sign } of keys) {
            const [x, y] = [JSON.stringify(a[key] ?? ''), JSON.stringify(b[key] ?? '')];
            if (x !== y) return (x < y ? -1 : 1) * sign;
          }
          return 0;
        };
        const found = [...tracker.issues.values()]
          .filter((one) => one.projectId === projectId)
          .map((one) => entity(one).fields)
          .filter(test)
          .sort(compare);
        // Pages go on from the sort key of the last entity answered, not from an offset: an entity that
        // changes between two windows moves in (or out of) the list, and an offset would then skip another.
        const link = query.optional('nextPageLink');
        const after = link === undefined ? undefined : readLink(link);
        const page =
          after === undefined
            ? found.slice(start, start + max)
            : found.filter((one) => compare(one, after) > 0).slice(0, max);
        const last = page.at(-1);
        return {
          json: {
            nextPageLinkSupported: true,
            ...(last !== undefined && {
              nextPageLink: Buffer.from(
                JSON.stringify(Object.fromEntries(keys.map(({ key }) => [key, last[key] ?? '']))),
              ).toString('base64url'),
            }),
            entities: page.map((fields) => ({ fields })),
          },
        };
      },
    },
    {
      method: 'GET',
      path: '/users',
      handle: ({ query }) => {
        project(query.required('projectId'));
        const given = (['username', 'email', 'displayName'] as const).filter(
          (key) => query.optional(key) !== undefined,
        );
        const [key] = given;
        if (key === undefined || given.length !== 1)
          throw bad('Give exactly one of username, email and displayName');
        return { json: USERS.filter((user) => user[key] === query.optional(key)) };
      },
    },
    {
      method: 'POST',
      path: '/entities/:entityTypeId/:entityId/comments',
      handle: async (call) => {
        const found = issue(
          call.params.entityId,
          call.query.required('projectId'),
          call.params.entityTypeId,
        );
        const { body, title } = await jsonBody(call);
        if (typeof body !== 'string' || body === '') throw bad("A comment needs a 'body'");
        if (title !== undefined && typeof title !== 'string')
          throw bad("A comment's 'title' is text");
        const note = {
          id: tracker.newId('C'),
          body,
          title,
          by: call.session.username,
          at: Date.now(),
        };
        found.comments.push(note);
        return { json: { commentId: note.id, createdDate: iso(note.at) } };
      },
    },
    {
      method: 'GET',
      path: '/entities/:entityTypeId/:entityId/comments',
      handle: ({ params, query }) => {
        const found = issue(params.entityId, query.required('projectId'), params.entityTypeId);
        const after = query.date('afterTime');
        const notes = found.comments.filter((note) => after === undefined || note.at > after);
        return {
          json: { nextPageLinkSupported: false, comments: query.window(notes).map(comment) },
        };
      },
    },
    {
      method: 'POST',
      path: '/entities/:entityTypeId/:entityId/attachments',
      handle: async (call) => {
        const projectId = call.query.required('projectId');
        if (!/^multipart\/form-data\b/i.test(call.contentType))
          throw new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Upload files as multipart/form-data');
        let form: FormData;
        try {
          const request = new Request('http://upload.invalid/', {
            method: 'POST',
            headers: { 'content-type': call.contentType },
            body: await call.body(),
          });
          form = await request.formData();
        } catch {
          throw bad('The body is not multipart/form-data');
        }
        const fileName = form.get('fileName');
        const file = form.get('file');
        if (typeof fileName !== 'string' || fileName === '')
          throw bad('The part fileName is required');
        if (!(file instanceof Blob)) throw bad('The part file is required');
        const found = issue(call.params.entityId, projectId, call.params.entityTypeId);
        const bytes = new Uint8Array(await file.arrayBuffer());
        const stored = {
          id: tracker.newId('F'),
          fileName,
          bytes,
          by: call.session.username,
          at: Date.now(),
        };
        found.attachments.set(stored.id, stored);
        return { json: attachment(stored) };
      },
    },
    {
      method: 'GET',
      path: '/entities/:entityTypeId/attachments/content',
      handle: ({ params, query }) => {
        const contentUri = query.required('contentUri');
        issueType(params.entityTypeId);
        for (const one of tracker.issues.values()) {
          const file = one.attachments.get(contentUri);
          if (file !== undefined) return { text: Buffer.from(file.bytes).toString('base64') };
        }
        throw notFound(`No file '${contentUri}'`);
      },
    },
    {
      method: 'DELETE',
      path: '/entities/:entityTypeId/:entityId/attachments',
      handle: ({ params, query }) => {
        const attachmentId = query.required('attachmentId');
        const found = issue(params.entityId, query.required('projectId'), params.entityTypeId);
        if (!found.attachments.delete(attachmentId))
          throw notFound(`No attachment '${attachmentId}'`);
        return { status: 204 };
      },
    },
    {
      method: 'GET',
      path: '/entities/:entityTypeId/history',
      handle: ({ params, query }) => {
        const projectId = project(query.required('projectId'));
        issueType(params.entityTypeId);
        const since = query.date('since', true) ?? 0;
        const maxTime = query.date('maxTime') ?? Infinity;
        const entityId = query.optional('entityId');
        const notBy = query.optional('notUpdatedByUser');
        const descending = query.oneOf('orderByDirection', ['ASC', 'DESC']) === 'DESC';
        const text = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
        const revisions = tracker.revisions
          .filter(
            (revision) =>
              revision.projectId === projectId &&
              revision.at >= since &&
              revision.at <= maxTime &&
              (entityId === undefined || revision.entityId === entityId) &&
              revision.by !== notBy,
          )
          .sort(
            (a, b) =>
              a.at - b.at || text(a.entityId, b.entityId) || text(a.revisionId, b.revisionId),
          );
        if (descending) revisions.reverse();
        return {
          json: {
            nextPageLinkSupported: false,
            revisions: query.window(revisions).map((revision) => ({
              entityId: revision.entityId,
              revisionId: revision.revisionId,
              updatedBy: revision.by,
              revisionDateTime: iso(revision.at),
              revisionType: revision.type,
              fieldsChangedInRevision: revision.changed,
            })),
          },
        };
      },
    },
  ];
}

/** The initialize body: a list of `{ key, value, sensitive }`, each typed, no key twice. */
function parseEntries(text: string): Map<string, string> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad('The initialize body is not JSON');
  }
  if (!Array.isArray(body)) throw bad('The initialize body must be a list of parameter entries');
  const entries = new Map<string, string>();
  for (const [index, entry] of body.entries()) {
    const { key, value, sensitive } = (entry ?? {}) as Record<string, unknown>;
    if (
      typeof key !== 'string' ||
      key === '' ||
      typeof value !== 'string' ||
      typeof sensitive !== 'boolean'
    )
      throw bad(`Entry ${index} must be { key: string, value: string, sensitive: boolean }`);
    if (entries.has(key)) throw bad(`The key '${key}' appears twice`);
    entries.set(key, value);
  }
  return entries;
}

/** The sort key a search's nextPageLink carries (base64url JSON), or a 400 when it is not one it gave. */
function readLink(link: string): Fields {
  try {
    const key: unknown = JSON.parse(Buffer.from(link, 'base64url').toString('utf8'));
    if (typeof key === 'object' && key !== null && !Array.isArray(key)) return key as Fields;
  } catch {
    // Not JSON: refused below.
  }
  throw bad('nextPageLink is not one this connector answered');
}

/** The parameters of a route's path (`:name` segments), or `undefined` when the path is another. */
function matchPath(
  pattern: string,
  segments: readonly string[],
): Record<string, string> | undefined {
  const parts = pattern.split('/').filter(Boolean);
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    const segment = segments[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}

/** The session's token, from the header initialize answered. */
const tokenOf = (authorization: string | undefined) =>
  /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];

/** A running plain connector. */
export interface PlainConnector {
  /** Where it listens, such as `http://127.0.0.1:40123`. */
  readonly url: string;
  /** One JSON line per request it served: method, path, status. */
  readonly logLines: readonly string[];
  /** The issues its tracker holds now. */
  readonly issueCount: () => number;
  /** Logs a session out in the tracker, as a login that expired: every later call with it answers 401. */
  expire(session: readonly { readonly key: string; readonly value: string }[]): void;
  close(): Promise<void>;
}

/** Starts the plain connector on 127.0.0.1, on a free port. */
export async function startPlainConnector(): Promise<PlainConnector> {
  const tracker = new Tracker();
  const logLines: string[] = [];
  const table = routes(tracker);

  async function serve(request: IncomingMessage, url: URL): Promise<Answer> {
    const initialize = /^\/sdk\/api\/1\.0\/initialize\/([^/]+)$/.exec(url.pathname);
    const cleanup = /^\/sdk\/api\/1\.0\/cleanup\/([^/]+)$/.exec(url.pathname);
    const query = new Query(url.searchParams);
    const body = async () => {
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of request as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY) throw new HttpError(413, 'PAYLOAD_TOO_LARGE', 'The body is too large');
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    };
    if (request.method === 'POST' && initialize?.[1] !== undefined) {
      const sdkSessionId = decodeURIComponent(initialize[1]);
      const systemId = query.required('systemId');
      const config = parseEntries((await body()).toString('utf8'));
      const suppress = config.get('suppressNotification');
      if (suppress !== undefined && suppress !== '1' && suppress !== '2')
        throw bad('suppressNotification must be "1" or "2"');
      const [site, username, password] = ['url', 'username', 'password'].map((key) =>
        config.get(key),
      );
      if (site === undefined || !URL.canParse(site) || !/^https?:$/.test(new URL(site).protocol))
        throw bad("The configuration field 'url' must be an http or https URL");
      if (!username || !password)
        throw bad("The configuration fields 'username' and 'password' are required");
      const token = tracker.login(username, password, { sdkSessionId, systemId });
      if (token === undefined)
        throw new HttpError(
          401,
          'AUTHENTICATION_FAILED',
          'The tracker refused the user name or password',
        );
      return { json: [{ key: 'Authorization', value: `Bearer ${token}`, sensitive: true }] };
    }
    const token = tokenOf(request.headers.authorization);
    const session = token === undefined ? undefined : tracker.whoIs(token);
    if (request.method === 'POST' && cleanup?.[1] !== undefined) {
      // A session ends only its own login: another session's ids with this one are refused.
      if (
        token === undefined ||
        session?.sdkSessionId !== decodeURIComponent(cleanup[1]) ||
        session.systemId !== query.required('systemId')
      )
        throw new HttpError(401, 'SESSION_EXPIRED', 'The session is unknown or not this one');
      query.oneOf('cleanupGlobalCache', ['true', 'false']);
      tracker.logout(token);
      return { json: {} };
    }
    if (!url.pathname.startsWith(`${BASE}/`)) throw notFound('No such route');
    const segments = url.pathname
      .slice(BASE.length)
      .split('/')
      .filter(Boolean)
      .map(decodeURIComponent);
    for (const route of table) {
      const params = route.method === request.method ? matchPath(route.path, segments) : undefined;
      if (params === undefined) continue;
      if (route.open !== true && session === undefined)
        throw new HttpError(
          401,
          'SESSION_EXPIRED',
          'The session is missing, unknown or expired: initialize again',
        );
      const contentType = request.headers['content-type'] ?? '';
      // An open route never reads the session.
      return route.handle({ params, query, session: session as Session, contentType, body });
    }
    throw notFound('No such route');
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://connector.invalid');
    const write = (answer: Answer) => {
      const status = answer.status ?? 200;
      logLines.push(JSON.stringify({ method: request.method, path: url.pathname, status }));
      if (status === 204) response.writeHead(204).end();
      else if (answer.text !== undefined)
        response
          .writeHead(status, { 'content-type': 'text/plain; charset=utf-8' })
          .end(answer.text);
      else
        response
          .writeHead(status, { 'content-type': 'application/json' })
          .end(JSON.stringify(answer.json));
    };
    serve(request, url).then(write, (error: unknown) => {
      const known = error instanceof HttpError;
      const status = known ? error.status : error instanceof URIError ? 400 : 500;
      const code = known ? error.code : status === 400 ? 'INVALID_INPUT' : 'INTERNAL_ERROR';
      const message = known
        ? error.message
        : status === 400
          ? 'The path is not valid'
          : 'Something went wrong';
      // The rest of a refused body is not read: the connection is not reused.
      if (!request.complete) response.setHeader('connection', 'close');
      write({ status, json: { errors: { code, message } } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    logLines,
    issueCount: () => tracker.issues.size,
    expire(session) {
      const token = tokenOf(
        session.find((entry) => entry.key.toLowerCase() === 'authorization')?.value,
      );
      if (token !== undefined) tracker.logout(token);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
