import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { defineConnector, field } from '@connector-sdk/core';
import { createEndSystemClient } from '@connector-sdk/core/http';
import { serve, type ConnectorServer } from '@connector-sdk/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useLocalRecording } from '../../test/local-recording.js';
import { LOOPBACK_EGRESS } from '../../test/records-connector.js';
import { CassetteLeakError, createPlatformSimulator, type PlatformSimulator } from '../index.js';

// A secret an end system echoes in another spelling than the connector sent it, recorded through a connector
// served by `serve()` over real HTTP on 127.0.0.1: the cassette keeps none of them, as no log line would; and a
// compressed file download, whose bytes hide what is inside, is kept only when the recorder could read it and
// found no secret there.

/** A key as the user entered it: upper case, and a character past ASCII for NFD to change. */
const KEY = 'K3F2504E0-ÄB89-11D3-9A0C-0305E82C33';

const fullWidth = (text: string) =>
  text.replace(/[!-~]/g, (char) => String.fromCharCode(char.charCodeAt(0) + 0xfee0));
const SPELLINGS: Record<string, (text: string) => string> = {
  lower: (text) => text.toLowerCase(),
  swapped: (text) =>
    [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
  fullWidth,
  zeroWidth: (text) => [...text].join('\u200b'),
  softHyphen: (text) => [...text].join('\u00ad'),
  wrapped: (text) => `${text.slice(0, 10)}\r\n ${text.slice(10)}`,
  nfd: (text) => text.normalize('NFD'),
  quotedPrintable: (text) =>
    [...Buffer.from(text, 'utf8')]
      .map((byte) =>
        byte > 0x7e ? `=${byte.toString(16).toUpperCase()}` : String.fromCharCode(byte),
      )
      .join(''),
  utf16Base64: (text) => Buffer.from(text, 'utf16le').toString('base64'),
};

/** What each download is: gzip of the key, gzip of nothing secret, a zip. */
const DOWNLOADS: Record<string, Buffer> = {
  'secret.gz': gzipSync(`key=${KEY}\n`),
  'plain.gz': gzipSync('id,title\n1,first\n'),
  // A local file header, then deflated bytes (which are no UTF-8).
  'archive.zip': Buffer.from([
    0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x08, 0x08, 0x08, 0x00, 0xc3, 0x28, 0xff,
  ]),
};

const local = useLocalRecording('spellings', (request, response) => {
  const [, kind, name = ''] = new URL(request.url ?? '/', local.url).pathname.split('/');
  if (kind === 'files') {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    response.end(DOWNLOADS[name]);
    return;
  }
  response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(`key ${(SPELLINGS[name] ?? String)(KEY)} accepted`);
});
let running: ConnectorServer;
let platform: PlatformSimulator;

const connector = defineConnector({
  name: 'spellings',
  version: '1',
  config: { url: field.url(), apiKey: field.secret() },
  session: { 'X-Url': field.url(), 'X-Api-Key': field.secret() },
  // A header holds visible ASCII only: the key travels percent-encoded in the session, decoded to be sent.
  initialize: ({ config }) => ({
    'X-Url': config.url,
    'X-Api-Key': encodeURIComponent(config.apiKey),
  }),
  operations: ({ get }) => ({
    echo: get('/echo/:spelling', async ({ params, session: own, signal, log }) => ({
      said: await createEndSystemClient({ baseUrl: own['X-Url'], signal, log })
        .get(`echo/${params.spelling}`, {
          searchParams: { api_key: decodeURIComponent(own['X-Api-Key']) },
        })
        .text(),
    })),
    download: get('/download/:name', async ({ params, session: own, signal, log }) => ({
      bytes: (
        await createEndSystemClient({ baseUrl: own['X-Url'], signal, log })
          .get(`files/${params.name}`, {
            searchParams: { api_key: decodeURIComponent(own['X-Api-Key']) },
          })
          .arrayBuffer()
      ).byteLength,
    })),
  }),
});

beforeAll(async () => {
  running = await serve(connector, { port: 0, egress: LOOPBACK_EGRESS });
  platform = createPlatformSimulator({
    target: running.url,
    config: { url: local.url, apiKey: { value: KEY, sensitive: true } },
  });
  expect((await platform.initialize()).status).toBe(200);
});
afterAll(() => running.close());

/** Records the platform's calls to these paths into a fresh cassette, and stops it. */
async function record(name: string, paths: readonly string[]): Promise<string> {
  const { cassette, path } = await local.record(name);
  for (const call of paths) expect((await platform.call({ path: call })).status).toBe(200);
  await cassette.stop();
  return path;
}

/** A text compared whatever its spelling: NFKC, lower case, without characters that do not show or line breaks. */
const folded = (text: string) =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{Default_Ignorable_Code_Point}\r\n ]/gu, '');

describe('a cassette of a secret in another spelling', () => {
  it('keeps none of them, in the file or in any string of it', async () => {
    const path = await record(
      'spellings',
      Object.keys(SPELLINGS).map((spelling) => `/echo/${spelling}`),
    );
    const text = readFileSync(path, 'utf8');
    const bodies = [...text.matchAll(/"text": ?"((?:[^"\\]|\\.)*)"/g)].map(
      (match) => JSON.parse(`"${match[1]}"`) as string,
    );
    expect(bodies).toHaveLength(Object.keys(SPELLINGS).length);
    for (const body of bodies) expect(body).toMatch(/^key \{\{secret:\d+\}\} accepted$/);
    for (const spelled of Object.values(SPELLINGS).map((spell) => spell(KEY)))
      expect(text).not.toContain(spelled.slice(0, 12));
    expect(folded(bodies.join('\n'))).not.toContain(folded(KEY).slice(0, 8));
  });

  it('keeps a gzip download it could read and found no secret in', async () => {
    const path = await record('plain-download', ['/download/plain.gz']);
    expect(readFileSync(path, 'utf8')).toContain(DOWNLOADS['plain.gz']?.toString('base64'));
  });

  it.each([
    ['secret.gz', /the response body is a gzip file that holds a secret/],
    [
      'archive.zip',
      /the response body is a zip file, whose compressed bytes the recorder cannot scan/,
    ],
  ])('refuses to keep %s, naming the exchange', async (file, why) => {
    const stopped = record(`download-${file}`, [`/download/${file}`]);
    await expect(stopped).rejects.toBeInstanceOf(CassetteLeakError);
    await expect(stopped).rejects.toThrow(why);
    await expect(stopped).rejects.toThrow(
      new RegExp(`test "download-${file}", exchange 1 \\(GET\\)`),
    );
    expect(() => readFileSync(join(local.dir, `download-${file}.json`))).toThrow(/ENOENT/);
  });
});
