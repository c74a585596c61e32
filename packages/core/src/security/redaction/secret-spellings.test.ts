import { describe, expect, it } from 'vitest';
import { secretForms } from './secret-spellings.js';

// The kit's leak check looks for these spellings: they follow what the redactor finds (ARCHITECTURE.md, D5).
describe('secretForms', () => {
  const value = 'tK/9+a&b<c>"d';
  const json = JSON.stringify(value).slice(1, -1);
  const goJson = (text: string) =>
    text.replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
  const html = (text: string) =>
    text.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt' }[c] ?? 'quot'};`);

  it.each([
    ['HTML escaped twice', html(html(value))],
    ["Go's JSON of HTML", goJson(JSON.stringify(html(value)).slice(1, -1))],
    ['percent-encoded JSON', encodeURIComponent(json)],
    ["percent-encoded Go's JSON", encodeURIComponent(goJson(json))],
    ['JSON of percent-encoding', encodeURIComponent(value).replaceAll('%', '\\u0025')],
    ['HTML of percent-encoding', encodeURIComponent(value).replaceAll('%', '&#37;')],
    ['JavaScript \\x escapes', 'tK/9+a\\x26b\\x3cc\\x3e\\x22d'],
  ])('lists the secret %s', (_, written) => {
    expect(secretForms(value).anywhere).toContain(written);
  });
});
