// Type tests, checked by `pnpm typecheck`: what a declarative connector's author gets from the item's zod
// schema. A mapping that names a path the schema lacks, a conversion of another type, or an id that is not the
// item's fails to compile.
import { expectTypeOf } from 'vitest';
import { z } from '../index.js';
import { convert, restApi, type DeepPartial, type ItemPath, type RestEntity } from './index.js';

type Session = { readonly 'X-Url': string };
const api = restApi<Session>({ baseUrl: ({ session }) => session['X-Url'] });

const Item = z.object({
  id: z.string(),
  title: z.string(),
  done: z.boolean(),
  points: z.number().optional(),
  created: z.string(),
  status: z.object({ name: z.string(), since: z.string().optional() }),
  labels: z.array(z.string()),
  meta: z.object({ rank: z.number() }).optional(),
});
type Item = z.infer<typeof Item>;

expectTypeOf<'status.name'>().toExtend<ItemPath<Item>>();
expectTypeOf<'status.nope'>().not.toExtend<ItemPath<Item>>();

// Everything that fits the schema compiles; the check hook's change is a partial item.
const issues = api.entity(Item, {
  name: 'Issue',
  id: 'id',
  fields: {
    id: { from: 'id', name: 'Id', readOnly: true },
    status: { from: 'status.name', name: 'Status' },
    since: { from: 'status.since', name: 'Since', as: convert.date('yyyy-MM-dd') },
    done: { from: 'done', name: 'Done', as: convert.boolean() },
    points: { from: 'points', name: 'Points', as: convert.number() },
    created: { from: 'created', name: 'Created', as: convert.date("yyyy-MM-dd'T'HH:mm:ss.SSSZ") },
    meta: { from: 'meta', name: 'Meta', as: convert.json(z.object({ rank: z.number() })) },
    labels: { from: 'labels', name: 'Labels' },
    tags: { from: 'labels', name: 'Tags', as: convert.list(z.string().max(20)) },
    summary: { name: 'Summary', read: (item) => `${item.id}: ${item.title}` },
  },
  updated: 'created',
  get: 'issues/{id}',
  update: 'issues/{id}',
  search: { by: { status: { EQUALS: 'status' }, done: ['EQUALS'] } },
  check: ({ change, id }, call) => {
    // Only what the platform's fields set, at any depth: a status without its other keys.
    expectTypeOf(change).toEqualTypeOf<DeepPartial<Item>>();
    expectTypeOf(change.status).toEqualTypeOf<
      { name?: string; since?: string | undefined } | undefined
    >();
    expectTypeOf(id).toEqualTypeOf<string | undefined>();
    expectTypeOf(call.session).toEqualTypeOf<Session>();
  },
});
expectTypeOf(issues).toEqualTypeOf<RestEntity<Session>>();

api.entity(Item, {
  name: 'Missing path',
  id: 'id',
  fields: {
    // @ts-expect-error: the item has no `assignee`
    assignee: { from: 'assignee', name: 'Assignee' },
  },
});

api.entity(Item, {
  name: 'Missing nested path',
  id: 'id',
  fields: {
    // @ts-expect-error: the item's status has no `color`
    color: { from: 'status.color', name: 'Color' },
  },
});

api.entity(Item, {
  name: 'Wrong conversion',
  id: 'id',
  fields: {
    // @ts-expect-error: `title` is text, not a boolean
    title: { from: 'title', name: 'Title', as: convert.boolean() },
  },
});

api.entity(Item, {
  name: 'Wrong conversion',
  id: 'id',
  fields: {
    // @ts-expect-error: `points` is a number, not a date's text
    points: { from: 'points', name: 'Points', as: convert.date('yyyy-MM-dd') },
  },
});

api.entity(Item, {
  name: 'Missing id',
  // @ts-expect-error: the item has no `key`
  id: 'key',
  fields: {},
});

api.entity(Item, {
  name: 'Update time not a field',
  id: 'id',
  fields: { title: { from: 'title', name: 'Title' } },
  // @ts-expect-error: `updated` names one of the fields
  updated: 'created',
});

api.entity(Item, {
  name: 'Computed from a missing key',
  id: 'id',
  fields: {
    // @ts-expect-error: the item has no `assignee`
    who: { name: 'Who', read: (item) => item.assignee },
  },
});
