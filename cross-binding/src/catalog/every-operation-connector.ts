import {
  PLATFORM_OPERATIONS,
  defineConnector,
  field,
  secret,
  type Operation,
  type PlatformOperationName,
} from '@connector-sdk/core';
import { SAMPLES, UPLOADED } from './every-operation.js';

/** What each operation's handler was given last, as the catalog parsed it. */
export const seen = new Map<PlatformOperationName, { params: unknown; query: unknown }>();

type AnyBuilder = (handler: (context: never) => unknown) => Operation<unknown>;

/** Checks an upload as the handler gets it: the name, the whole file, the comment sent after it. */
async function readUpload(body: {
  readonly fileName: string;
  readonly file: { bytes(): Promise<Uint8Array> };
  field(name: string): Promise<string | undefined>;
}): Promise<void> {
  const bytes = Buffer.from(await body.file.bytes());
  const comment = await body.field('fileComment');
  if (body.fileName !== 'sample.bin' || !bytes.equals(UPLOADED) || comment !== 'last')
    throw new Error(
      `the upload arrived changed: ${body.fileName}, ${bytes.length} bytes, ${comment}`,
    );
}

/** A connector serving every operation of the catalog with its sample answer (every-operation.ts). */
export const everyOperationConnector = defineConnector({
  name: 'every-operation',
  version: '1.0.0',
  config: { url: field.url() },
  session: { Authorization: field.secret() },
  initialize: () => ({ Authorization: secret('Bearer every-operation') }),
  operations: ({ platform }) =>
    Object.fromEntries(
      (Object.keys(PLATFORM_OPERATIONS) as PlatformOperationName[]).map((name) => [
        name,
        (platform[name] as unknown as AnyBuilder)(async (context: never) => {
          const { params, query, body } = context as {
            params: unknown;
            query: unknown;
            body: unknown;
          };
          if (SAMPLES[name].body === 'upload') await readUpload(body as never);
          seen.set(name, { params, query });
          return SAMPLES[name].answer;
        }),
      ]),
    ),
});
