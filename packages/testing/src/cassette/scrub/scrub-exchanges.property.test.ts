import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { CassetteExchange } from '../cassette-file.js';
import { findCassetteLeaks } from './find-cassette-leaks.js';
import { scrubExchanges } from './scrub-exchanges.js';

// Whatever a secret holds and however the connector or the end system spells it (the forms the redactor
// recognises), scrubbing leaves no form of it in the URL, headers or bodies of a recording (ARCHITECTURE.md,
// D5 and D23).

const secretArb = fc.oneof(
  fc.stringMatching(/^[\x21-\x7e]{6,24}$/),
  fc
    .string({ unit: 'grapheme', minLength: 6, maxLength: 16 })
    .filter((s) => s.trim() === s && s.length >= 6),
);

const spell: ((secret: string) => string)[] = [
  (s) => s,
  (s) => encodeURIComponent(s),
  (s) => new URLSearchParams({ q: s }).toString().slice(2),
  (s) => JSON.stringify(s).slice(1, -1),
  (s) => Buffer.from(s).toString('base64'),
  (s) => Buffer.from(s).toString('hex'),
  (s) => `Bearer ${s}`,
  (s) => `Basic ${Buffer.from(`alice:${s}`).toString('base64')}`,
];

it('leaves no form of any secret in any part of a recording (property)', () => {
  fc.assert(
    fc.property(
      secretArb,
      fc.array(fc.nat(spell.length - 1), { minLength: 4, maxLength: 4 }),
      fc.stringMatching(/^[ a-z]{0,8}$/),
      (secret, [inQuery, inHeader, inBody, inAnswer], padding) => {
        const form = (index: number | undefined) =>
          (spell[index ?? 0] as (s: string) => string)(secret);
        const exchange: CassetteExchange = {
          request: {
            method: 'POST',
            url: `https://acme.example/items?q=${encodeURIComponent(form(inQuery))}`,
            headers: { authorization: `Bearer ${secret}`, 'x-echo': form(inHeader) },
            body: { json: { note: `${padding}${form(inBody)}${padding}`, [form(inBody)]: 1 } },
          },
          response: {
            status: 200,
            headers: { 'set-cookie': [`sid=${secret}; Path=/`] },
            body: { text: `${padding}${form(inAnswer)}${padding}` },
          },
        };
        const { tests, units } = scrubExchanges({ t: [exchange] }, [secret]);
        expect(findCassetteLeaks({ version: 1, tests }, units)).toEqual([]);
        expect(JSON.stringify(tests)).toContain('{{secret:1}}');
      },
    ),
    { numRuns: 300 },
  );
});
