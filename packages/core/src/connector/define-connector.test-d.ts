// Type tests, checked by `pnpm typecheck`: what authors get inferred from their schemas.
import { expectTypeOf } from 'vitest';
import { defineConnector, field, secret, z, type PathParams, type SearchQuery } from '../index.js';

expectTypeOf<PathParams<'/a/:id/b/:other'>>().toEqualTypeOf<{ id: string } & { other: string }>();

defineConnector({
  name: 'types',
  version: '1',
  config: {
    url: field.url(),
    port: field.port().optional(),
    flag: field.boolean().default(false),
    mode: field.enum(['a', 'b']),
    options: field.json(z.object({ n: z.number() })),
  },
  session: { Authorization: field.secret(), 'X-Count': field.integer() },
  initialize({ config, suppressNotification }) {
    expectTypeOf(config.url).toEqualTypeOf<string>();
    expectTypeOf(config.port).toEqualTypeOf<number | undefined>();
    expectTypeOf(config.flag).toEqualTypeOf<boolean>();
    expectTypeOf(config.mode).toEqualTypeOf<'a' | 'b'>();
    expectTypeOf(config.options).toEqualTypeOf<{ n: number }>();
    expectTypeOf(suppressNotification).toEqualTypeOf<boolean | undefined>();
    return { Authorization: secret('Bearer t'), 'X-Count': '3' };
  },
  operations: ({ get, post }) => ({
    one: get('/items/:id', ({ session, params, query }) => {
      expectTypeOf(session.Authorization).toEqualTypeOf<string>();
      expectTypeOf(session['X-Count']).toEqualTypeOf<number>();
      expectTypeOf(params.id).toEqualTypeOf<string>();
      expectTypeOf(query).toEqualTypeOf<Readonly<Record<string, string | readonly string[]>>>();
      // @ts-expect-error: no such path parameter
      void params.other;
      return null;
    }),
    two: post(
      '/items',
      { query: z.object({ dry: z.coerce.boolean() }), body: z.object({ name: z.string() }) },
      ({ body, query }) => {
        expectTypeOf(body).toEqualTypeOf<{ name: string }>();
        expectTypeOf(query).toEqualTypeOf<{ dry: boolean }>();
        return body;
      },
    ),
  }),
});

defineConnector({
  name: 'types',
  version: '1',
  config: {},
  session: { 'X-Required': field.string() },
  // @ts-expect-error: initialize must return every required session field
  initialize: () => ({}),
});

// The caches: typed through a schema or a named type, on the contexts that have them.
defineConnector({
  name: 'caches',
  version: '1',
  config: {},
  session: {},
  async initialize(context) {
    expectTypeOf(await context.systemCache.get('k', z.array(z.string()))).toEqualTypeOf<
      string[] | undefined
    >();
    // The session being made: its writes are made once initialize has answered.
    expectTypeOf(await context.sessionCache.get('refresh', z.string())).toEqualTypeOf<
      string | undefined
    >();
    return {};
  },
  operations: ({ get }) => ({
    one: get('/one', async ({ sessionCache, systemCache }) => {
      expectTypeOf(await sessionCache.get('k', z.number())).toEqualTypeOf<number | undefined>();
      expectTypeOf(await sessionCache.get<{ n: number }>('k')).toEqualTypeOf<
        { n: number } | undefined
      >();
      expectTypeOf(await systemCache.get('k')).toEqualTypeOf<unknown>();
      expectTypeOf(
        await systemCache.getOrSet('k', async () => ['a'], { ttlMs: 1_000 }),
      ).toEqualTypeOf<string[]>();
      return null;
    }),
  }),
  async cleanup({ sessionCache, systemCache, cleanupGlobalCache }) {
    if (cleanupGlobalCache) await systemCache.delete('k');
    await sessionCache.set('k', { any: 'json' }, { ttlMs: 5 });
  },
});

// Secret fields through zod chains (ARCHITECTURE.md, D8): the value types follow what the chain parses to, and a
// secret session value may be returned plain or wrapped in secret(); the SDK marks it sensitive either way.
defineConnector({
  name: 'secret-chains',
  version: '1',
  config: {
    password: field.secret().min(8),
    apiKey: field.secret().trim().describe('the API key').optional(),
    pin: field
      .secret({ maxLength: 4 })
      .transform((value) => Number(value))
      .optional(),
  },
  session: { Authorization: field.secret().min(10), 'X-Key': field.secret().optional() },
  initialize({ config }) {
    expectTypeOf(config.password).toEqualTypeOf<string>();
    expectTypeOf(config.apiKey).toEqualTypeOf<string | undefined>();
    expectTypeOf(config.pin).toEqualTypeOf<number | undefined>();
    return { Authorization: `Bearer ${config.password}`, 'X-Key': secret('k') };
  },
  operations: ({ get }) => ({
    one: get('/one', ({ session }) => {
      expectTypeOf(session.Authorization).toEqualTypeOf<string>();
      expectTypeOf(session['X-Key']).toEqualTypeOf<string | undefined>();
      return null;
    }),
  }),
});

// An answer schema types what the handler returns: the input of the schema, or a promise of it.
defineConnector({
  name: 'typed-answers',
  version: '1',
  config: {},
  session: {},
  initialize: () => ({}),
  operations: ({ get, delete: del }) => ({
    ok: get('/ok', { answer: z.object({ id: z.string() }) }, () => ({ id: 'a', extra: 1 })),
    asynchronous: get('/async', { answer: z.array(z.string()) }, async () => ['a']),
    // @ts-expect-error an id must be a string
    wrong: get('/wrong', { answer: z.object({ id: z.string() }) }, () => ({ id: 1 })),
    gone: del('/gone', { status: 204 }, () => undefined),
    text: get('/text', { answerAs: 'text' }, () => 'name.png'),
  }),
});

// Platform operations are typed from the catalog (ARCHITECTURE.md, D24): parsed query, body and answer shape.
defineConnector({
  name: 'catalog-types',
  version: '1',
  config: {},
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: 'Bearer x' }),
  operations: ({ platform }) => ({
    projects: platform.projects(({ query }) => {
      expectTypeOf(query.startIndex).toEqualTypeOf<number>();
      expectTypeOf(query.maxResults).toEqualTypeOf<number>();
      return [{ id: 1, name: 'One' }];
    }),
    getEntity: platform.getEntity(({ params, query, session }) => {
      expectTypeOf(params.entityId).toEqualTypeOf<string>();
      expectTypeOf(query.entityTypeId).toEqualTypeOf<string | null>();
      expectTypeOf(query.expand).toEqualTypeOf<('ATTACHMENTS' | 'LINKS')[] | undefined>();
      expectTypeOf(session.Authorization).toEqualTypeOf<string>();
      return { fields: { summary: 'x' } };
    }),
    searchEntities: platform.searchEntities(({ body }) => {
      expectTypeOf(body.query).toEqualTypeOf<SearchQuery>();
      return { nextPageLinkSupported: false, entities: [] };
    }),
    deleteEntity: platform.deleteEntity(({ query }) => {
      expectTypeOf(query.deletionType).toEqualTypeOf<'SOFT_DELETE' | 'ARCHIVE'>();
    }),
    // @ts-expect-error an entity answer needs its fields
    updateEntity: platform.updateEntity(() => ({ id: 'x' })),
  }),
});
