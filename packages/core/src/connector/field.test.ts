import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineConnector } from './define-connector.js';
import { field } from './field.js';
import { holdsSecretField, isMarkedSecret, isSecretField } from './secret-field.js';
import { INVALID, fastParserOf } from './fast-parse.js';

const ok = (schema: z.ZodType, value: string | undefined) => schema.parse(value);
const fails = (schema: z.ZodType, value: string | undefined) =>
  schema.safeParse(value).error?.issues[0]?.message;

describe('field helpers', () => {
  it('string trims and refuses blanks', () => {
    expect(ok(field.string(), '  a ')).toBe('a');
    expect(fails(field.string(), '   ')).toBe('must not be empty');
    expect(fails(field.string({ maxLength: 2 }), 'abc')).toBe('must be at most 2 characters');
    expect(
      fails(field.string({ pattern: /^[A-Z]+$/, patternDescription: 'a project key' }), 'abc'),
    ).toBe('must match a project key');
  });

  it('secret keeps spaces and is recognised through wrappers', () => {
    expect(ok(field.secret(), ' pw ')).toBe(' pw ');
    expect(isSecretField(field.secret().optional())).toBe(true);
    expect(isSecretField(field.secret().default('x'))).toBe(true);
    expect(isSecretField(field.string())).toBe(false);
  });

  it('secret stays secret through any chain of zod methods', () => {
    const chains: [string, z.ZodType][] = [
      ['min', field.secret().min(8)],
      ['regex', field.secret().regex(/^[a-z]+$/)],
      ['refine', field.secret().refine((v) => v !== 'x')],
      ['trim', field.secret().trim()],
      ['describe', field.secret().describe('the API key')],
      ['meta', field.secret().meta({ title: 'key' })],
      ['min + optional', field.secret().min(8).optional()],
      ['optional + default', field.secret().optional().default('x')],
      ['nullable + catch', field.secret().nullable().catch(null)],
      ['transform', field.secret().transform((v) => v.toUpperCase())],
      ['pipe', field.secret().pipe(z.string().max(99))],
      [
        'refine + min + describe + optional',
        field.secret().refine(Boolean).min(2).describe('x').optional(),
      ],
      ['readonly', field.secret().readonly()],
      ['union', z.union([field.secret(), z.literal('')])],
      [
        'long chain',
        field.secret().trim().min(1).max(200).regex(/x/).startsWith('x').describe('k'),
      ],
      [
        'five refinements',
        field
          .secret()
          .refine(Boolean)
          .refine(Boolean)
          .refine(Boolean)
          .refine(Boolean)
          .refine(Boolean),
      ],
    ];
    chains.push(
      ['lazy', z.lazy(() => field.secret().min(2))],
      ['preprocess', z.preprocess((v) => v, field.secret())],
      ['intersection', z.intersection(field.secret(), z.string().max(9))],
    );
    for (const [name, schema] of chains) {
      expect(isSecretField(schema), name).toBe(true);
      expect(isMarkedSecret(schema), name).toBe(true);
    }
    expect(isSecretField(field.string().min(8).optional())).toBe(false);
    expect(isSecretField(z.string().describe('password'))).toBe(false);
  });

  it('refuses a connector whose secret field is no longer read as secret, naming the field', () => {
    // What a zod release that stopped linking a copy to its parent would make of `.min(8)`: a schema with the
    // same checks (the secret mark among them) that isSecretField cannot trace back to field.secret().
    const chained = field.secret().min(8);
    const detached = chained.clone(chained._zod.def);
    expect(isSecretField(detached)).toBe(false);
    expect(isMarkedSecret(detached)).toBe(true);
    const define = (shape: 'config' | 'session') =>
      defineConnector({
        name: 'c',
        version: '1',
        config: shape === 'config' ? { apiKey: detached.optional() } : {},
        session: shape === 'session' ? { 'X-Key': detached } : {},
        initialize: () => ({}),
      });
    expect(() => define('config')).toThrow(
      /Configuration field "apiKey" is declared with field\.secret\(\), but the SDK no longer reads it as secret/,
    );
    expect(() => define('session')).toThrow(/Session field "X-Key" is declared with field\.secret/);
    expect(isMarkedSecret(field.string().min(8))).toBe(false);
  });

  it('knows a field that holds a secret field inside its value', () => {
    expect(holdsSecretField(field.json(z.object({ token: field.secret() })))).toBe(true);
    expect(holdsSecretField(field.json(z.array(z.object({ k: field.secret().min(2) }))))).toBe(
      true,
    );
    expect(holdsSecretField(field.json(z.record(z.string(), field.secret())).optional())).toBe(
      true,
    );
    expect(holdsSecretField(field.json(z.object({ token: z.string() })))).toBe(false);
  });

  it('url refuses control characters and whitespace, and returns the normalised URL', () => {
    for (const value of [
      'http://a.example/\r\nSet-Cookie: x=1',
      'http://a.example/a\tb',
      'http://a.ex\nample/',
      'http://a.example/a b',
      'http://a.example/\u0000',
      'http://a.example/\u007f',
      'http://a.example/a\u00a0b',
    ]) {
      expect(fails(field.url(), value), JSON.stringify(value)).toBe(
        'must not contain spaces or control characters',
      );
    }
    expect(ok(field.url(), 'HTTPS://A.Example/x/../y')).toBe('https://a.example/y');
    expect(ok(field.url(), 'https://a.example')).toBe('https://a.example');
    expect(ok(field.url(), 'https://a.example/')).toBe('https://a.example/');
    expect(ok(field.url(), 'https://a.example:443/api')).toBe('https://a.example/api');
    expect(ok(field.url(), 'https://a.example?x=1')).toBe('https://a.example/?x=1');
    expect(ok(field.url(), 'https://a.example?')).toBe('https://a.example/?');
    expect(ok(field.url(), 'https://bücher.example/é')).toBe(
      'https://xn--bcher-kva.example/%C3%A9',
    );
    // The fast parser and zod's path agree.
    expect(ok(field.url().optional(), 'HTTPS://A.Example/x/../y')).toBe('https://a.example/y');
  });

  it('url reads a value the same way the second time, past the number of URLs it remembers', () => {
    const parse = fastParserOf(field.url()) as (raw: string | undefined) => unknown;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 600; i++)
        expect(parse(`HTTPS://A.Example/${i}/../x${i}`)).toBe(`https://a.example/x${i}`);
      expect(parse('ftp://a.example')).toBe(INVALID);
      expect(parse(' https://a.example ')).toBe('https://a.example');
      expect(parse('https://a.example/')).toBe('https://a.example/');
    }
  });

  it('url accepts http(s) only and refuses embedded credentials', () => {
    expect(ok(field.url(), ' https://a.example/x ')).toBe('https://a.example/x');
    expect(fails(field.url(), 'ftp://a.example')).toBe('must use http: or https:');
    expect(fails(field.url({ protocols: ['https:'] }), 'http://a.example')).toBe('must use https:');
    expect(fails(field.url(), 'https://user:pw@a.example')).toBe(
      'must not contain a user name or password',
    );
    expect(fails(field.url(), 'a.example')).toBe('must be an absolute URL');
  });

  it('integer and port parse whole decimal numbers within bounds', () => {
    expect(ok(field.integer(), ' -12 ')).toBe(-12);
    expect(fails(field.integer(), '1.5')).toBe('must be a whole number');
    expect(fails(field.integer(), '0x10')).toBe('must be a whole number');
    expect(fails(field.integer({ min: 1 }), '0')).toBe('must be at least 1');
    expect(ok(field.port(), '443')).toBe(443);
    expect(fails(field.port(), '0')).toBe('must be at least 1');
  });

  it('boolean reads the usual spellings', () => {
    for (const value of ['true', 'TRUE', '1', 'yes', 'on'])
      expect(ok(field.boolean(), value)).toBe(true);
    for (const value of ['false', '0', 'No', 'off']) expect(ok(field.boolean(), value)).toBe(false);
    expect(fails(field.boolean(), 'maybe')).toBe('must be true or false');
  });

  it('email takes an address, trimmed, and refuses others without echoing them', () => {
    expect(ok(field.email(), ' ada@example.com ')).toBe('ada@example.com');
    expect(ok(field.email(), 'first.last+tag@mail.xn--bcher-kva.example')).toBe(
      'first.last+tag@mail.xn--bcher-kva.example',
    );
    for (const value of [
      'ada',
      'ada@',
      '@example.com',
      'ada@example',
      'a b@example.com',
      'ada@-x.com',
      'ada@x..com',
    ])
      expect(fails(field.email(), value), value).toBe('must be an e-mail address');
    expect(fails(field.email(), `${'a'.repeat(60)}@${'b'.repeat(200)}.com`)).toBe(
      'must be at most 254 characters',
    );
    expect(fails(field.email().optional(), 'nope')).toBe('must be an e-mail address');
  });

  it('enum and json validate without echoing the value', () => {
    expect(ok(field.enum(['a', 'b']), ' b')).toBe('b');
    expect(fails(field.enum(['a', 'b']), 'secret-c')).toBe('must be one of a, b');
    expect(ok(field.json(z.object({ n: z.number() })), '{"n":1}')).toEqual({ n: 1 });
    expect(fails(field.json(z.object({ n: z.number() })), '{"n":')).toBe('must be valid JSON');
    expect(
      field.json(z.object({ n: z.number() })).safeParse('{"n":"x"}').error?.issues[0]?.path,
    ).toEqual(['n']);
  });
});
