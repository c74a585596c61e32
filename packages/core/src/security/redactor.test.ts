import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';
import { secret } from './secret.js';
import { inspect } from 'node:util';

describe('Redactor', () => {
  it('redacts a secret and its derived forms', () => {
    const value = 'p@ss w/rd+"x"';
    const redactor = new Redactor([value]);
    const forms = [
      value,
      encodeURIComponent(value),
      JSON.stringify(value).slice(1, -1),
      Buffer.from(value).toString('base64'),
      Buffer.from(`alice:${value}`).toString('base64'),
      Buffer.from(`bob:${value}`).toString('base64url'),
    ];
    for (const form of forms) expect(redactor.redact(`before ${form} after`)).not.toContain(form);
  });

  it('hides the parts of a Basic credential', () => {
    const header = `Basic ${Buffer.from('alice:s3cr3t-pw').toString('base64')}`;
    const redactor = new Redactor([header]);
    expect(redactor.redact('password s3cr3t-pw, pair alice:s3cr3t-pw')).toBe(
      `password ${REDACTED}, pair ${REDACTED}`,
    );
  });

  it('redacts deep values without touching prototypes', () => {
    const redactor = new Redactor(['tok']);
    const value = JSON.parse(
      '{"__proto__": {"polluted": "tok"}, "list": ["a tok", 1, null]}',
    ) as unknown;
    const copy = redactor.redactValue(value) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).not.toContain('tok');
    expect(redactor.redactValue(new Error('tok leaked'))).toMatchObject({
      type: 'Error',
      message: `${REDACTED} leaked`,
    });
  });

  it('never lets a secret of 4+ characters through, whatever it contains (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 4, maxLength: 200, unit: 'grapheme' }),
        fc.string(),
        fc.string(),
        (value, before, after) => {
          const redactor = new Redactor([value]);
          for (const form of [
            value,
            encodeURIComponent(value),
            JSON.stringify(value).slice(1, -1),
          ]) {
            expect(redactor.redact(`${before}${form}${after}`)).not.toContain(form);
          }
          const basic = Buffer.from(`${before}:${value}`).toString('base64');
          const core = Buffer.from(value).toString('base64').slice(4, -4);
          if (core.length >= 8) expect(redactor.redact(basic)).not.toContain(core);
        },
      ),
    );
  });
});

describe('secret()', () => {
  it('never prints its value', () => {
    const token = secret('Bearer abc');
    expect(`${token}`).toBe(REDACTED);
    expect(JSON.stringify({ token })).toBe(`{"token":"${REDACTED}"}`);
    expect(inspect(token)).not.toContain('abc');
    expect(token.reveal()).toBe('Bearer abc');
  });
});
