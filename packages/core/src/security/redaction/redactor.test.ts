import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';
import { looksSecret } from '../secret-names.js';
import { secret } from '../secret.js';
import { inspect } from 'node:util';

/**
 * The CPU time this process spent on `work`, in ms. Not the time that passed: a busy machine runs other
 * processes in between, which is not this code's cost. What these tests guard against cost seconds of it (one
 * regular expression over every form, a search per form and position), the code as it is a few milliseconds.
 */
function cpuMs(work: () => void): number {
  const before = process.cpuUsage();
  work();
  const spent = process.cpuUsage(before);
  return (spent.user + spent.system) / 1_000;
}

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
    const redactor = new Redactor(['toke']);
    const value = JSON.parse(
      '{"__proto__": {"polluted": "toke"}, "list": ["a toke", 1, null]}',
    ) as unknown;
    const copy = redactor.redactValue(value) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).not.toContain('toke');
    expect(redactor.redactValue(new Error('toke leaked'))).toMatchObject({
      type: 'Error',
      message: `${REDACTED} leaked`,
    });
  });

  it('finds a secret ending in % written URL-encoded before two hex digits, which also read as a nested escape', () => {
    // `%2500` is `%00` escaped once more, or an escaped `%` followed by `00`: both readings are searched.
    const redactor = new Redactor(['   %']);
    expect(redactor.redact('%20%20%20%2500')).toBe(`${REDACTED}00`);
    expect(redactor.redact('x=%20%20%20%25FF&y')).toBe(`x=${REDACTED}FF&y`);
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
          // Inside `base64(user:password)`: the characters encoded from the password's bits alone, at
          // whatever alignment the user name gives them, must not survive.
          const offset = Buffer.byteLength(`${before}:`);
          const basic = Buffer.from(`${before}:${value}`).toString('base64');
          const exposed = basic.slice(
            Math.ceil((8 * offset) / 6),
            Math.floor((8 * (offset + Buffer.byteLength(value))) / 6),
          );
          expect(redactor.redact(`Basic ${basic}`)).not.toContain(exposed);
        },
      ),
      // Once found at random: an encoded `%` at the end, before hex digits.
      { examples: [['   %', '', '00']] },
    );
  });
});

it('stays fast with as many long secrets as a 1 MiB initialize body can flag', () => {
  // 400 sensitive entries of 2,500 characters: one regular expression over all their forms took seconds.
  // Alike values (an attacker chooses them): the worst case for one big alternation.
  const secrets = Array.from({ length: 400 }, (_, i) => `v${i}`.padEnd(2_500, `x${i}`));
  const redactor = new Redactor(secrets);
  const text = `The configuration is invalid: 'x' ${secrets[7]} is required`;
  const redacted: string[] = [];
  const spent = cpuMs(() =>
    redacted.push(redactor.redact('nothing secret here'), redactor.redact(text)),
  );
  // Their forms are far over the budget: every text of the request is redacted whole (ARCHITECTURE.md, D6).
  expect(redacted).toEqual([REDACTED, REDACTED]);
  expect(spent).toBeLessThan(2_000);
});

it('judges a value by its length, not by the escapes its encodings need', () => {
  // 6,000 characters of URL-special characters made a million characters of forms when each encoding was
  // spelled out; the text is decoded now, so the value costs what a plain one of its length costs.
  const value = ` \t${'"#<>?^`{}/:;=@[\\]|\''.repeat(300)}`.slice(0, 6_000);
  const redactor = new Redactor([value]);
  for (const written of [
    value,
    encodeURIComponent(value),
    encodeURIComponent(encodeURIComponent(value)),
  ])
    expect(redactor.redact(`a ${written} b`)).toBe(`a ${REDACTED} b`);
  // 150 values of 40 three-byte characters and spaces, which each URL form writes as 9 or 3 characters.
  const secrets = Array.from({ length: 150 }, (_, i) => `${i} ${'€ '.repeat(19)}`.slice(0, 40));
  // (The space after it is taken too: with it, the text holds "2 € … € ", another of these secrets.)
  expect(new Redactor(secrets).redact(`x ${encodeURIComponent(secrets[42] as string)} y`)).toBe(
    `x ${REDACTED}y`,
  );
});

it('makes a request pay for its forms with the secrets it sent', () => {
  // A secret costs more than its characters pay for only when it is tiny: a thousand of them are over budget.
  const tiny = Array.from({ length: 1_000 }, (_, i) => String.fromCharCode(0x4e00 + i));
  expect(new Redactor(tiny).redact('nothing secret here')).toBe(REDACTED);
  // A few dozen are paid for by the base allowance.
  expect(new Redactor(tiny.slice(0, 40)).redact(`a ${tiny[7] as string} b`)).toBe(
    `a ${REDACTED} b`,
  );
  // However much they paid, at most MAX_FORM_CHARACTERS: past it, texts are redacted whole.
  const long = Array.from({ length: 60 }, (_, i) => `${i}-${'k'.repeat(1_000)}`);
  expect(new Redactor(long).redact('nothing secret here')).toBe(REDACTED);
  expect(new Redactor(long.slice(0, 10)).redact('nothing secret here')).toBe('nothing secret here');
});

it('merges the overlapping matches of one form into one range', () => {
  const secrets = Array.from({ length: 50 }, (_, i) => 'a'.repeat(4 + i));
  expect(new Redactor(secrets).redact(`x ${'a'.repeat(4_000)} y`)).toBe(`x ${REDACTED} y`);
});

it('finds a secret as HTML escapes it', () => {
  const redactor = new Redactor(["p&ss'w<rd"]);
  expect(redactor.redact('<p>bad p&amp;ss&#39;w&lt;rd</p>')).toBe(`<p>bad ${REDACTED}</p>`);
  expect(redactor.redact('<p>bad p&amp;ss&#x27;w&lt;rd</p>')).toBe(`<p>bad ${REDACTED}</p>`);
});

it('finds every form, form by form or in one pass, while the forms are within budget', () => {
  const secrets = Array.from({ length: 80 }, (_, i) => `secret-${i}-`.padEnd(40, `${i}`));
  const redactor = new Redactor(secrets);
  const text = secrets
    .filter((_, i) => i % 7 === 0)
    .map((value, i) => `${i} ${encodeURIComponent(value)} ${Buffer.from(value).toString('base64')}`)
    .join(' | ');
  const redacted = redactor.redact(text);
  for (const value of secrets) expect(redacted).not.toContain(value);
  expect(redacted).toMatch(/^0 \[REDACTED\] \[REDACTED\] \| 1 \[REDACTED\]/);
  // A short text takes the other path, with the same result.
  expect(redactor.redact(`x ${secrets[3]} y`)).toBe(`x ${REDACTED} y`);
});

it('stays linear on a text that matches every form everywhere', () => {
  const secrets = Array.from(
    { length: 500 },
    (_, i) => `a${String.fromCharCode(97 + (i % 26))}a${i % 2 ? 'a' : 'b'}`,
  );
  const redactor = new Redactor(secrets);
  let redacted = '';
  const spent = cpuMs(() => (redacted = redactor.redact('aaab'.repeat(16_384))));
  expect(redacted).toBe(REDACTED);
  expect(spent).toBeLessThan(2_000);
});

it('hides the token of a credential in the forms connector code sends it on', () => {
  const redactor = new Redactor([
    'Bearer  t0k!(n)\nx',
    `Basic ${Buffer.from('alice:pw (1)!').toString('base64')}`,
  ]);
  for (const form of [
    new URLSearchParams({ api_key: ' t0k!(n)\nx' }).toString(),
    `token=${encodeURIComponent('t0k!(n)\nx')}`,
    new URLSearchParams({ password: 'pw (1)!' }).toString(),
  ]) {
    expect(redactor.redact(form)).toMatch(/=\[REDACTED\]$/);
  }
});

it('redacts overlapping secrets whole', () => {
  expect(new Redactor(['abcd1234', '1234wxyz']).redact('<abcd1234wxyz>')).toBe(`<${REDACTED}>`);
});

describe('secrets under four characters', () => {
  it('redacts them where they stand alone, and leaves them inside words and numbers', () => {
    const redactor = new Redactor(['e', '42', 'x!']);
    expect(redactor.redact('PIN 42 refused; port 8042; the x! code')).toBe(
      `PIN ${REDACTED} refused; port 8042; the ${REDACTED} code`,
    );
    expect(redactor.redact('e')).toBe(REDACTED);
    expect(redactor.redact('pin=42&cvv=42')).toBe(`pin=${REDACTED}&cvv=${REDACTED}`);
    expect(redactor.redact('"42"')).toBe(`"${REDACTED}"`);
    expect(redactor.redact('4242 e2e 42e')).toBe('4242 e2e 42e');
  });

  it('treats any letter or digit as part of a word, not only ASCII ones', () => {
    const redactor = new Redactor(['12']);
    expect(redactor.redact('ž12 12ž ١12 12')).toBe(`ž12 12ž ١12 ${REDACTED}`);
    expect(redactor.redact('𝒜12 (12)')).toBe(`𝒜12 (${REDACTED})`);
  });

  it('redacts their URL and JSON forms standing alone', () => {
    const redactor = new Redactor(['a b', 'é"']);
    expect(redactor.redact('q=a%20b&r=a+b')).toBe(`q=${REDACTED}&r=${REDACTED}`);
    expect(redactor.redact('{"pin":"é\\""}')).toBe(`{"pin":"${REDACTED}"}`);
    expect(redactor.redact('{"pin":"\\u00e9\\""}')).toBe(`{"pin":"${REDACTED}"}`);
  });

  it('redacts a short password inside Basic and a short bearer token', () => {
    const basic = `Basic ${Buffer.from('alice:pw').toString('base64')}`;
    const redactor = new Redactor([basic, 'Bearer t1']);
    expect(redactor.redact('user alice, password pw, token t1; pwd t1x')).toBe(
      `user alice, password ${REDACTED}, token ${REDACTED}; pwd t1x`,
    );
  });

  it('counts an escape before a short secret as a boundary', () => {
    const redactor = new Redactor(['42']);
    expect(redactor.redact('{"message":"Wrong PIN:\\n42"}')).toBe(
      `{"message":"Wrong PIN:\\n${REDACTED}"}`,
    );
    expect(redactor.redact('next=%2Fpin%3D42')).toBe(`next=%2Fpin%3D${REDACTED}`);
    expect(redactor.redact('pin:\\u000a42')).toBe(`pin:\\u000a${REDACTED}`);
    expect(redactor.redact('room n42, x%2G42')).toBe('room n42, x%2G42');
  });

  it('finds short secrets that overlap, and after a lone surrogate', () => {
    expect(new Redactor(['1-2', '2-3']).redact('codes 1-2-3.')).toBe(`codes ${REDACTED}.`);
    expect(new Redactor(['42']).redact('x\udc0042 y')).toBe(`x\udc00${REDACTED} y`);
  });

  it('drops the start of a short secret a clip cuts through', () => {
    const redactor = new Redactor(['123']);
    expect(redactor.clip('CVV 123x is wrong', 5)).toBe('CVV …');
    expect(redactor.clip('CVV 123x is wrong', 6)).toBe('CVV …');
    expect(redactor.clip('CVV 123x is wrong', 7)).toBe('CVV …');
    expect(redactor.clip('CVV 123 is wrong', 16)).toBe(`CVV ${REDACTED} i…`);
    expect(redactor.clip('CVV 4123 is wrong', 7)).toBe('CVV 412…');
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

describe('looksSecret', () => {
  it('judges long names as short ones, each time (long names are not remembered)', () => {
    const long = 'x'.repeat(1_000);
    for (let i = 0; i < 3; i++) {
      expect(looksSecret(`${long}-token`)).toBe(true);
      expect(looksSecret(`${long}-url`)).toBe(false);
      expect(looksSecret('X-Api-Key')).toBe(true);
      expect(looksSecret('X-Acme-Url')).toBe(false);
    }
  });
});

describe('Redactor.clip', () => {
  const token = 'tok-5e8a1c7f3b9d';
  const redactor = new Redactor([token]);

  it('redacts before it cuts, so a secret across the cut is hidden whole', () => {
    const text = `${'x'.repeat(95)}${token} and more`;
    const clipped = redactor.clip(text, 100);
    expect(clipped).toBe(`${'x'.repeat(95)}[REDA…`);
    expect(clipped).not.toContain(token.slice(0, 4));
  });

  it('drops a tail that starts a secret form the text holds only in part', () => {
    const text = `${'x'.repeat(95)}${token.slice(0, 9)}`; // already cut short of the secret elsewhere
    expect(redactor.clip(`${text}${'y'.repeat(50)}`, 104)).toBe(`${'x'.repeat(95)}…`);
    // Uncut text is only redacted: its words stay as they are.
    expect(redactor.clip('a short message ending in t', 100)).toBe('a short message ending in t');
  });
});

describe('URL forms', () => {
  // Each part of a URL, as the WHATWG parser writes a value concatenated into it: the redactor must know the
  // same spelling. Delimiters of that part are left out (they end it).
  const parts: [string, RegExp, (value: string) => string][] = [
    ['path', /[/?#%\\.]/, (value) => new URL(`http://h/${value}`).pathname.slice(1)],
    ['query', /[#%]/, (value) => new URL(`http://h/?${value}`).search.slice(1)],
    ['fragment', /%/, (value) => new URL(`http://h/#${value}`).hash.slice(1)],
    ['user info', /[@:/?#%\\[\]]/, (value) => new URL(`http://${value}:x@h/`).username],
  ];
  it.each(parts)(
    'redacts a secret written into a URL %s (property)',
    (_part, delimiters, write) => {
      fc.assert(
        fc.property(fc.string({ minLength: 4, maxLength: 24, unit: 'grapheme' }), (value) => {
          fc.pre(!delimiters.test(value) && value.trim() === value);
          const written = write(value);
          const redacted = new Redactor([value]).redact(`at ${written} here`);
          expect(redacted).toBe(`at ${REDACTED} here`);
        }),
        { numRuns: 300 },
      );
    },
  );

  it('redacts hex, and decodes Basic only when it is a UTF-8 user:password', () => {
    const secret = 'hex-secret-9f2a';
    const hex = Buffer.from(secret).toString('hex');
    const redactor = new Redactor([secret]);
    expect(redactor.redact(`a ${hex} b ${hex.toUpperCase()}`)).toBe(`a ${REDACTED} b ${REDACTED}`);
    const noise = Buffer.from([0xff, 0xfe, 0x3a, 0x80, 0x81, 0x82]).toString('base64');
    expect(new Redactor([`Basic ${noise}`]).redact('a \u00ff\u00fe: b')).toBe('a \u00ff\u00fe: b');
    const basic = `Basic ${Buffer.from('alice:s3cret-pw').toString('base64')}`;
    expect(new Redactor([basic]).redact('password s3cret-pw')).toBe(`password ${REDACTED}`);
  });
});

describe('encoded forms', () => {
  const lowerHex = (text: string) =>
    text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  const json = (value: string) => JSON.stringify(value).slice(1, -1);
  const goJson = (value: string) =>
    json(value).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  const html = (value: string) =>
    value.replace(
      /[&<>"']/g,
      (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c] ?? '#39'};`,
    );
  /** How servers the issue names write a value: .NET, twice-encoding proxies, Go's encoding/json. */
  const encodings: Record<string, (value: string) => string> = {
    lowerHex: (value) => lowerHex(encodeURIComponent(value)),
    dotnet: (value) => lowerHex(encodeURIComponent(value)).replaceAll('%20', '+'),
    twice: (value) => encodeURIComponent(encodeURIComponent(value)),
    twiceLower: (value) => lowerHex(encodeURIComponent(lowerHex(encodeURIComponent(value)))),
    twiceForm: (value) =>
      new URLSearchParams({ q: new URLSearchParams({ q: value }).toString() }).toString().slice(2),
    goJson,
    goJsonUpper: (value) =>
      json(value).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16).toUpperCase()}`),
    htmlNumeric: (value) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`),
    // Two families at once: each family's escapes written by the other's encoder.
    htmlTwice: (value) => html(html(value)),
    goJsonOfHtml: (value) => goJson(html(value)),
    percentOfJson: (value) => encodeURIComponent(json(value)),
    percentOfGoJson: (value) => encodeURIComponent(goJson(value)),
    jsonOfPercent: (value) => encodeURIComponent(value).replaceAll('%', '\\u0025'),
    htmlOfPercent: (value) => encodeURIComponent(value).replaceAll('%', '&#37;'),
    htmlNumeric8: (value) =>
      value.replace(/[&<>"']/g, (c) => `&#${String(c.charCodeAt(0)).padStart(8, '0')};`),
    htmlHex8: (value) =>
      value.replace(/[&<>"']/g, (c) => `&#x${c.charCodeAt(0).toString(16).padStart(8, '0')};`),
    // Go's html/template inside a <script> string: `\x26`, `\x3c`, `\x22`.
    jsHex: (value) =>
      [...value]
        .map((c) =>
          /[\\"'&<>]/.test(c) ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : json(c),
        )
        .join(''),
  };
  /** Secrets full of what the encoders escape: / + = & < > " and the rest, beside any other character. */
  const secretValue = fc.oneof(
    fc.string({ unit: fc.constantFrom(...'/+=&<>"\' %?#aZ9é€😀'), minLength: 4, maxLength: 40 }),
    fc.string({ unit: 'grapheme', minLength: 4, maxLength: 40 }),
    fc.string({ unit: 'binary', minLength: 4, maxLength: 40 }),
  );

  it.each(Object.keys(encodings))(
    'finds a secret written %s, whatever surrounds it (property)',
    (name) => {
      const encode = encodings[name] as (value: string) => string;
      fc.assert(
        fc.property(
          secretValue,
          fc.string({ maxLength: 12 }),
          fc.string({ maxLength: 12 }),
          (value, before, after) => {
            // The encoders take well-formed text (encodeURIComponent throws on a lone surrogate).
            const usv = Buffer.from(value, 'utf8').toString('utf8');
            fc.pre(usv === value);
            const written = encode(value);
            const redacted = new Redactor([value]).redact(`${before} ${written} ${after}`);
            expect(redacted.split(REDACTED).some((part) => part.includes(written))).toBe(false);
          },
        ),
        { numRuns: Number(process.env.FUZZ_RUNS ?? 200) },
      );
    },
  );

  it.each([
    'htmlTwice',
    'goJsonOfHtml',
    'percentOfJson',
    'percentOfGoJson',
    'jsonOfPercent',
    'htmlOfPercent',
    'htmlNumeric8',
    'htmlHex8',
    'jsHex',
  ])('hides the whole of a secret written %s', (name) => {
    const value = 'tK/9+a&b<c>"d';
    const written = (encodings[name] as (value: string) => string)(value);
    expect(new Redactor([value]).redact(`error: token ${written} refused`)).toBe(
      `error: token ${REDACTED} refused`,
    );
  });

  it('finds the value of each cookie pair, and of the cookie of a Set-Cookie, but no attribute', () => {
    const redactor = new Redactor([
      'AuthSession=YWRtaW46NUY2; lang=en-GB-x-sso',
      'sid=Sc/4+vR&m<Kp>jH; Version=1; Path=/; Domain=end.example; Max-Age=3600; HttpOnly',
    ]);
    expect(redactor.redact('session YWRtaW46NUY2 for en-GB-x-sso')).toBe(
      `session ${REDACTED} for ${REDACTED}`,
    );
    expect(
      redactor.redact(`sid ${encodeURIComponent('Sc/4+vR&m<Kp>jH')} on end.example / 3600`),
    ).toBe(`sid ${REDACTED} on end.example / 3600`);
    // Base64 padding is no pair, and a short value is no cookie.
    expect(new Redactor(['dXNlcjpwYXNzd29yZA==', 'a=b; c=de']).redact('= b de')).toBe('= b de');
  });

  it('drops an escape a clip cuts in two, and the start of a secret written in escapes', () => {
    const value = 'tK/9+aQ&b<Zc>"dW=x7';
    const redactor = new Redactor([value]);
    const written = lowerHex(encodeURIComponent(encodeURIComponent(value)));
    for (let cut = 1; cut < written.length; cut++) {
      // The end system cut it itself, and the clip cuts right after: what is left must go.
      const text = `${'~'.repeat(20)}${written.slice(0, cut)}${'y'.repeat(50)}`;
      expect(redactor.clip(text, 20 + cut)).toBe(`${'~'.repeat(20)}…`);
    }
    // An escape cut in two before anything secret is dropped as well: it may be a secret's first character.
    expect(redactor.clip('a%2Fyz', 3)).toBe('a…');
    expect(redactor.clip('a%252Fyz', 4)).toBe('a…');
    expect(redactor.clip('ab\\u0041yz', 6)).toBe('ab…');
    expect(redactor.clip('ab&amp;yz', 5)).toBe('ab…');
    // So is one cut in two inside another family's escape, and a JavaScript `\x` cut.
    expect(redactor.clip('ab\\u0026amp;yz', 9)).toBe('ab…');
    expect(redactor.clip('ab%5Cu0026yz', 8)).toBe('ab…');
    expect(redactor.clip('ab&#37;2Fyz', 8)).toBe('ab…');
    expect(redactor.clip('ab\\x26yz', 5)).toBe('ab…');
    // A whole escape stays.
    expect(redactor.clip('a%2Fyz', 4)).toBe('a%2F…');
  });

  it('hides a secret in two families of escapes however a clip cuts it, even past what it reads', () => {
    // 43 characters for each of the secret's: further than a clip reads past its cut.
    const value = '/+&<>"=/+&<>"=/+&<>';
    const written = encodeURIComponent(encodeURIComponent(encodeURIComponent(value))).replaceAll(
      '%',
      '&#0000000037;',
    );
    const redactor = new Redactor([value]);
    const text = `${'~'.repeat(20)}${written}${'y'.repeat(50)}`;
    for (let max = 21; max < 20 + written.length; max++) {
      const clipped = redactor.clip(text, max);
      // Dropped, or shown as the marker (or its start) and what follows.
      expect(clipped.startsWith('~'.repeat(20))).toBe(true);
      expect(`${REDACTED}${'y'.repeat(50)}`.startsWith(clipped.slice(20).replace(/…$/, ''))).toBe(
        true,
      );
    }
  });
});
