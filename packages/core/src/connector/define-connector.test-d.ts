// Type tests, checked by `pnpm typecheck`: what authors get inferred from their schemas.
import { expectTypeOf } from 'vitest';
import { defineConnector, field, secret, z, type PathParams } from '../index.js';

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
