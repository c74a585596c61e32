import { expect, it } from 'vitest';
import { openText, sealText } from './sealed-box.js';
import { SessionKeys } from './session-keys.js';

const key = (text: string) => Buffer.from(text.padEnd(32, '-'));
const current = new SessionKeys([key('current')], false);

it('opens what it sealed, under the same name only, and hides the text', () => {
  const sealed = sealText(current, 'login:a', 'Bearer secret-token-1');
  expect(sealed).not.toContain('secret-token-1');
  expect(Buffer.from(sealed.split(':')[3] ?? '', 'base64url').toString()).not.toContain('secret');
  expect(openText(current, 'login:a', sealed)).toBe('Bearer secret-token-1');
  expect(openText(current, 'login:b', sealed)).toBeUndefined();
  expect(sealText(current, 'login:a', 'x')).not.toBe(sealText(current, 'login:a', 'x'));
});

it('refuses anything tampered with, and opens with a rotated key', () => {
  const sealed = sealText(current, 'n', 'text');
  const [version, id, iv, body] = sealed.split(':') as [string, string, string, string];
  const flipped = Buffer.from(body, 'base64url');
  flipped[0] = (flipped[0] ?? 0) ^ 1;
  for (const bad of [
    `${version}:${id}:${iv}:${flipped.toString('base64url')}`,
    `2:${id}:${iv}:${body}`,
    `${version}:${id}:${iv}`,
    'garbage',
  ])
    expect(openText(current, 'n', bad)).toBeUndefined();
  const rotated = new SessionKeys([key('next'), key('current')], false);
  expect(openText(rotated, 'n', sealed)).toBe('text');
  expect(openText(new SessionKeys([key('other')], false), 'n', sealed)).toBeUndefined();
});
