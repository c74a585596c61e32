import { secretForms as sdkSecretForms } from '@connector-sdk/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MASK, SecretSet } from './secret-forms.js';

// A leak check that knew fewer spellings than the redactor would pass a leak; one that knew more would fail a
// connector for a form the SDK never hides (ARCHITECTURE.md, D5).
describe('the kit looks for the forms the SDK redacts', () => {
  it('finds every form the SDK derives, wherever it sits', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 4, maxLength: 40, unit: 'grapheme' }),
        fc.string({ maxLength: 8 }),
        (secret, around) => {
          const set = new SecretSet();
          set.add(secret);
          for (const form of sdkSecretForms(secret).anywhere) {
            const text = `${around}${form}${around}`;
            expect(set.leaksIn(text), JSON.stringify(form)).toBe(true);
            expect(set.mask(text)).not.toContain(form);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('counts a short secret only where it stands alone, as the SDK redacts it', () => {
    const set = new SecretSet();
    set.add('42');
    expect(set.leaksIn('PIN 42 refused')).toBe(true);
    expect(set.leaksIn('pin=42&x=1')).toBe(true);
    expect(set.leaksIn('port 8042, 42nd street, ž42')).toBe(false);
    expect(set.mask('PIN 42, port 8042')).toBe(`PIN ${MASK}, port 8042`);
  });

  it('finds a whole Basic credential made with a companion value', () => {
    const set = new SecretSet();
    set.addCompanions(['alice']);
    set.add('s3cret-pass');
    const basic = Buffer.from('alice:s3cret-pass').toString('base64');
    expect(set.mask(`Authorization: Basic ${basic}`)).toBe(`Authorization: Basic ${MASK}`);
  });

  it('finds the non-ASCII JSON escapes and hex the SDK also redacts', () => {
    const set = new SecretSet();
    set.add('žluťoučký');
    expect(
      set.leaksIn(
        JSON.stringify('žluťoučký').replace(
          /[\u0080-\uffff]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
        ),
      ),
    ).toBe(true);
    expect(set.leaksIn(Buffer.from('žluťoučký').toString('hex'))).toBe(true);
  });
});
