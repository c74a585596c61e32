import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorBodySchema,
  PLATFORM_OPERATIONS,
  type PlatformOperationName,
} from '@connector-sdk/core';
import { bindings, initializeSession, type Running } from '../support/bindings.js';
import { everyOperationConnector, seen } from './every-operation-connector.js';
import { SAMPLES, UPLOADED, type OperationSample } from './every-operation.js';

const NAMES = Object.keys(PLATFORM_OPERATIONS) as PlatformOperationName[];

function pathOf(name: PlatformOperationName, sample: OperationSample): string {
  return PLATFORM_OPERATIONS[name].path.replace(/:(\w+)/g, (_, param: string) =>
    encodeURIComponent(sample.params?.[param] ?? ''),
  );
}

function bodyOf(sample: OperationSample): { body?: string | FormData; type?: string } {
  if (sample.body === undefined) return {};
  if (sample.body !== 'upload')
    return { body: JSON.stringify(sample.body), type: 'application/json' };
  const form = new FormData();
  form.append('fileName', 'sample.bin');
  form.append('file', new Blob([UPLOADED]), 'sample.bin');
  form.append('fileComment', 'last');
  return { body: form };
}

// Every operation of the platform's catalog through every binding, on real servers (ARCHITECTURE.md, D24): its
// method and path, its parsed input reaching the handler, its answer checked against its documented shape and
// written as documented (JSON, an empty 200, a 204, text, base64), and a 400 naming a required parameter left
// out.
describe.each(bindings)('$name: every platform operation', (binding) => {
  let running: Running;
  let base: string;
  let session: Record<string, string>;

  beforeAll(async () => {
    running = await binding.start(everyOperationConnector, { validateAnswers: true });
    base = `${running.origin}/sdk/api/1.0`;
    session = await initializeSession(running, [
      { key: 'url', value: 'https://tracker.example', sensitive: false },
    ]);
  });
  afterAll(() => running.close());

  async function call(name: PlatformOperationName, query: Record<string, string>) {
    const sample = SAMPLES[name];
    const { body, type } = bodyOf(sample);
    return fetch(`${base}${pathOf(name, sample)}?${new URLSearchParams(query).toString()}`, {
      method: PLATFORM_OPERATIONS[name].method,
      headers: type === undefined ? session : { ...session, 'content-type': type },
      ...(body === undefined ? {} : { body }),
    });
  }

  it.each(NAMES)('serves %s as documented', async (name) => {
    const sample = SAMPLES[name];
    seen.delete(name);
    const response = await call(name, sample.query);
    const entry = PLATFORM_OPERATIONS[name] as { status?: number; answerAs?: string };
    const text = await response.text();
    expect(response.status, text).toBe(entry.status ?? 200);
    expect(seen.get(name)?.params).toEqual(sample.params ?? {});
    if (entry.status === 204) {
      // No body (@hono/node-server still adds its default content type to any answer).
      expect(text).toBe('');
      expect(response.headers.get('content-length')).toBeNull();
    } else if (entry.answerAs === 'base64') {
      expect(Buffer.from(text, 'base64').equals(Buffer.from(UPLOADED))).toBe(true);
    } else if (entry.answerAs === 'text') {
      expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(text).toBe(sample.answer);
    } else {
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(text)).toEqual(sample.answer ?? {});
    }
  });

  it.each(NAMES.filter((name) => SAMPLES[name].required !== undefined))(
    'answers %s 400 naming a required parameter left out',
    async (name) => {
      const sample = SAMPLES[name];
      const query = Object.fromEntries(
        Object.entries(sample.query).filter(([key]) => key !== sample.required),
      );
      const response = await call(name, query);
      expect(response.status).toBe(400);
      const body = ErrorBodySchema.parse(await response.json());
      expect(body.errors.message).toContain(`'query.${sample.required}'`);
    },
  );
});
