// The path a declarative connector's user takes, for the tests of its parts (comments, attachments, history,
// users, lookups): a connector made with `defineConnector` whose operations are `api.operations(platform, …)`,
// served by `createHandler` and called as the platform calls it, against the end system of
// rest-parts-end-system.ts. Unlike rest-platform.ts it keeps answers that are not JSON (a 204, a file's base64
// stream) and sends the platform's multipart uploads.
import { createHandler, defineConnector, field, secret } from '../src/index.js';
import type { RestDescription, RestEntity } from '../src/rest/index.js';
import { api, PROJECT, type Session } from './rest-platform.js';
import type { PartsEndSystem } from './rest-parts-end-system.js';
import { TOKEN } from './rest-end-system.js';
import { withSession } from './sessions.js';

/** What one platform call answered: its status, its body as text and, when it is JSON, parsed. */
export interface PartsAnswer {
  readonly status: number;
  readonly text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads any answer's keys
  readonly body: any;
}

const DEFAULTS: Omit<RestDescription<Session>, 'entities'> = {
  connectorMetadata: { fields: [] },
  serverInfo: {
    integrationUserInfo: { fieldInternalName: 'url', userDataType: 'EMAIL_AS_USER' },
  },
  projects: [{ id: PROJECT, name: 'Project one' }],
};

/** The platform's multipart upload of attachment create: `fileName`, `file`, then `fileComment`. */
function platformUpload(file: { name: string; bytes: Uint8Array; comment?: string }) {
  const boundary = 'platform-boundary-7';
  const head =
    `--${boundary}\r\ncontent-disposition: form-data; name="fileName"\r\n\r\n${file.name}\r\n` +
    `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="${file.name}"\r\n` +
    'content-type: application/octet-stream\r\n\r\n';
  const tail =
    (file.comment === undefined
      ? '\r\n'
      : `\r\n--${boundary}\r\ncontent-disposition: form-data; name="fileComment"\r\n\r\n${file.comment}\r\n`) +
    `--${boundary}--\r\n`;
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes: async function* (): AsyncGenerator<Uint8Array> {
      yield new TextEncoder().encode(head);
      // The file in pieces, as a platform's upload arrives.
      for (let at = 0; at < file.bytes.length; at += 65_536)
        yield file.bytes.slice(at, at + 65_536);
      yield new TextEncoder().encode(tail);
    },
  };
}

/**
 * A connector of `description` against `system`, as the platform calls it.
 *
 * @param system - the end system
 * @param description - the entity types, and any other part of the description
 */
export function partsPlatform(
  system: PartsEndSystem,
  description: Partial<RestDescription<Session>> & {
    readonly entities: Readonly<Record<string, RestEntity<Session>>>;
  },
) {
  const connector = defineConnector({
    name: 'rest-parts-test',
    version: '1.0.0',
    config: { url: field.url() },
    session: { Authorization: field.secret(), 'X-Api-Url': field.url() },
    initialize: ({ config }) => ({
      Authorization: secret(`Bearer ${TOKEN}`),
      'X-Api-Url': config.url,
    }),
    operations: ({ platform }) => api.operations(platform, { ...DEFAULTS, ...description }),
  });
  const handle = withSession(createHandler(connector, { egress: { allow: ['127.0.0.0/8'] } }), {
    entries: [{ key: 'url', value: system.url, sensitive: false }],
  });
  const call = async (request: {
    readonly method?: string;
    readonly path: string;
    readonly query?: Readonly<Record<string, string>>;
    readonly body?: unknown;
    readonly upload?: { name: string; bytes: Uint8Array; comment?: string };
  }): Promise<PartsAnswer> => {
    const upload = request.upload === undefined ? undefined : platformUpload(request.upload);
    const response = await handle({
      method: request.method ?? 'GET',
      path: `/sdk/api/1.0${request.path}`,
      query: { projectId: PROJECT, ...request.query },
      headers: upload === undefined ? {} : { 'content-type': upload.contentType },
      body: request.body,
      ...(upload === undefined ? {} : { bytes: upload.bytes }),
    });
    const text =
      response.stream === undefined ? response.body : await new Response(response.stream).text();
    const json = response.headers['content-type']?.startsWith('application/json') === true;
    return { status: response.status, text, body: json ? (JSON.parse(text) as unknown) : text };
  };
  return { call };
}
