import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldedForm, foldedView } from './folded-view.js';
import { REDACTED, Redactor } from './redactor.js';
import { secretForms } from './secret-spellings.js';

// A secret in another spelling: the same characters in another case, another Unicode form, with characters
// that do not show or line breaks inside, or its UTF-16 bytes in base64, or quoted-printable.

const UUID = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
const KEY = 'tK9aQbZc7dWx2yMn';
const NON_ASCII = 'Grüße-Schlüssel-7Qx';

const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
const swapCase = (text: string) =>
  [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
const inside = (text: string, mark: string) => [...text].join(mark);
/** Quoted-printable (RFC 2045): `=`, non-ASCII bytes as `=XX`, a soft line break every `width` characters. */
function quotedPrintable(text: string, width = 8): string {
  const escaped = [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      byte === 0x3d || byte > 0x7e
        ? `=${byte.toString(16).toUpperCase()}`
        : String.fromCharCode(byte),
    )
    .join('');
  let out = '';
  for (let at = 0; at < escaped.length;) {
    let end = Math.min(at + width, escaped.length);
    // Never split an escape.
    const mark = escaped.lastIndexOf('=', end - 1);
    if (mark > end - 3 && mark >= at && end < escaped.length) end = mark;
    out += escaped.slice(at, end) + (end < escaped.length ? '=\r\n' : '');
    at = end;
  }
  return out;
}

const SPELLINGS: [string, string, (value: string) => string][] = [
  ['a UUID echoed lower-case', UUID, (value) => value.toLowerCase()],
  ['upper case', KEY, (value) => value.toUpperCase()],
  ['lower case', KEY, (value) => value.toLowerCase()],
  ['every letter in the other case', KEY, swapCase],
  ['full-width forms', KEY, fullWidth],
  ['full-width and upper case', KEY, (value) => fullWidth(value.toUpperCase())],
  ['a zero-width space between characters', KEY, (value) => inside(value, '\u200b')],
  ['a soft hyphen between characters', KEY, (value) => inside(value, '\u00ad')],
  ['wrapped at a line break', KEY, (value) => `${value.slice(0, 7)}\r\n${value.slice(7)}`],
  ['wrapped and indented', KEY, (value) => `${value.slice(0, 5)}\n    ${value.slice(5)}`],
  ['NFD', NON_ASCII, (value) => value.normalize('NFD')],
  ['NFD, upper case', NON_ASCII, (value) => value.normalize('NFD').toUpperCase()],
  ['quoted-printable', `${KEY}=é`, (value) => quotedPrintable(value)],
  ['base64 of UTF-16LE', KEY, (value) => Buffer.from(value, 'utf16le').toString('base64')],
  [
    'base64 of UTF-16LE inside a longer text',
    KEY,
    (value) => Buffer.from(`-Key ${value} -Force`, 'utf16le').toString('base64'),
  ],
];

describe('a secret in another spelling', () => {
  it.each(SPELLINGS)('is redacted: %s', (_, value, spell) => {
    const written = spell(value);
    const redactor = new Redactor([value]);
    const text = `refused: ${written} (try again)`;
    const redacted = redactor.redact(text);
    expect(redacted).toContain(REDACTED);
    expect(redacted).not.toContain(written);
    // Nothing of the secret is left around the mark, folded or not.
    for (const part of redacted.split(REDACTED))
      expect(foldedForm(part)).not.toContain(foldedForm(value).slice(0, 6));
  });

  it.each(SPELLINGS)('is not shown by a clip that cuts through it: %s', (_, value, spell) => {
    const written = spell(value);
    const redactor = new Redactor([value]);
    const text = `refused: ${written}`;
    for (let max = 10; max < text.length; max += 3) {
      const clipped = redactor.clip(text, max);
      expect(foldedForm(clipped)).not.toContain(foldedForm(value).slice(0, 8));
    }
  });

  it('leaves ordinary words alone for a short secret in another case', () => {
    const redactor = new Redactor(['Pin', 'ab']);
    expect(redactor.redact('PIN pin Pin AB ab')).toBe(`PIN pin ${REDACTED} AB ${REDACTED}`);
  });

  it('lists the lower and upper case and UTF-16LE base64 for the leak check', () => {
    const { anywhere } = secretForms(UUID);
    expect(anywhere).toContain(UUID.toLowerCase());
    expect(anywhere).toContain(Buffer.from(UUID, 'utf16le').toString('base64'));
    expect(secretForms('ab').standalone).not.toContain('AB');
  });

  it('finds a secret of 4+ characters in any case, with U+200B anywhere inside (property)', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9]{4,40}$/),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 4 }),
        (value, upper, breaks) => {
          let written = [...value]
            .map((char, i) => (upper[i] ? char.toUpperCase() : char.toLowerCase()))
            .join('');
          for (const at of breaks) written = `${written.slice(0, at)}\u200b${written.slice(at)}`;
          const redacted = new Redactor([value]).redact(`<${written}>`);
          // A U+200B before or after the secret is outside it, and may stay.
          expect(redacted.replaceAll('\u200b', '')).toBe(`<${REDACTED}>`);
        },
      ),
    );
  });
});

describe('foldedView', () => {
  it('maps each folded unit back to what it was folded from', () => {
    const text = 'A\u200bＢc\r\n  é';
    const view = foldedView(text);
    if (typeof view === 'string') throw new Error('expected a view');
    expect(view.text).toBe('abcé');
    expect([...view.from.subarray(0, 4)]).toEqual([0, 2, 3, 8]);
    expect([...view.to.subarray(0, 4)]).toEqual([1, 3, 4, 9]);
  });

  it('makes room for characters that fold to several', () => {
    const view = foldedView('㎏ﬃ'.repeat(20));
    expect(typeof view === 'string' ? view : view.text).toBe('kgffi'.repeat(20));
  });

  it('is the lower-cased text itself when nothing else changes', () => {
    expect(foldedView('Plain ASCII text')).toBe('plain ascii text');
  });
});
