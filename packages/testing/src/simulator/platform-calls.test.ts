import { defineConnector, readWindow } from '@connector-sdk/core';
import { serve } from '@connector-sdk/node';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createPlatformSimulator } from './platform-simulator.js';

/** Every byte value, so a download mangled as UTF-8 text on the way shows. */
const FILE = Uint8Array.from({ length: 1_000 }, (_, i) => i % 256);

const PROJECTS = Array.from({ length: 11 }, (_, i) => ({ id: `P${i}`, name: `Project ${i}` }));

function connector(options: { readonly ignoreWindow?: boolean } = {}) {
  return defineConnector({
    name: 'calls',
    version: '1',
    config: {},
    session: {},
    initialize: () => ({}),
    operations: ({ platform }) => ({
      projects: platform.projects(({ query }) =>
        options.ignoreWindow === true ? PROJECTS : readWindow(query, { all: () => PROJECTS }),
      ),
      getEntity: platform.getEntity(({ params }) =>
        params.entityId === 'broken' ? ({ id: 1 } as never) : { fields: { id: params.entityId } },
      ),
      inlineFileName: platform.inlineFileName(() => 'a b.png'),
      attachmentContent: platform.attachmentContent(() => new Blob([FILE])),
    }),
  });
}
const simulator = (options?: { readonly ignoreWindow?: boolean }) =>
  createPlatformSimulator({
    target: connector(options),
    config: {},
    // The connector answers wrong shapes on purpose: let the simulator, not the handler, see them.
    handlerOptions: { validateAnswers: false },
  });

describe('the simulator drives the platform operations', () => {
  it('calls one with typed answers, and refuses an answer of the wrong shape', async () => {
    const platform = simulator();
    const { answer } = await platform.callOperation('getEntity', {
      params: { entityId: 'A-1' },
      query: { entityTypeId: 'null', projectId: 'DEMO' },
    });
    expect(answer.fields).toEqual({ id: 'A-1' });
    expect(
      (
        await platform.callOperation('inlineFileName', {
          params: { entityTypeId: 'issue' },
          query: { fileSourceUrl: 'x' },
        })
      ).answer,
    ).toBe('a b.png');
    await expect(
      platform.callOperation('getEntity', {
        params: { entityId: 'broken' },
        query: { entityTypeId: 'issue', projectId: 'DEMO' },
      }),
    ).rejects.toThrow("platform.getEntity answered what the platform cannot read: 'answer.fields'");
  });

  it('takes numbers in the query where the handler receives numbers, written as the platform writes them', async () => {
    const platform = simulator();
    const { answer } = await platform.callOperation('projects', {
      query: { startIndex: 3, maxResults: 2 },
    });
    expect(answer).toEqual(PROJECTS.slice(3, 5));
  });

  it('reads a whole list window by window, as the platform pages', async () => {
    expect(await simulator().readAll('projects', {}, { pageSize: 4 })).toEqual(PROJECTS);
    await expect(
      simulator({ ignoreWindow: true }).readAll('projects', {}, { pageSize: 4 }),
    ).rejects.toThrow('platform.projects answered 11 items for maxResults=4');
  });
});

describe('a download through the simulator', () => {
  it.each(['in-process', 'over HTTP'])(
    'gives the file as bytes in answer and body, its base64 in text (%s)',
    async (via) => {
      const server = via === 'over HTTP' ? await serve(connector(), { port: 0 }) : undefined;
      try {
        const platform = createPlatformSimulator({
          target: server?.url ?? connector(),
          config: {},
        });
        const content = await platform.callOperation('attachmentContent', {
          params: { entityTypeId: 'issue' },
          query: { contentUri: 'a-1' },
        });
        expectTypeOf(content.answer).toEqualTypeOf<Uint8Array>();
        expect(content.answer).toEqual(FILE);
        expect(content.body).toEqual(FILE);
        expect(content.text).toBe(Buffer.from(FILE).toString('base64'));
      } finally {
        await server?.close();
      }
    },
  );
});
