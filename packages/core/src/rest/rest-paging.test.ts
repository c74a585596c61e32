// Every way an end system pages gives exactly the platform's window (startIndex, maxResults), across its page
// boundaries: offset and limit, page and size, a cursor in the body, the `Link` header's next page, and none.
// Through a connector served by `createHandler`, against a real REST end system on 127.0.0.1.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startRestEndSystem, type RestEndSystem } from '../../test/rest-end-system.js';
import { api, errorBody, IssueSchema, platformFor, type Answer } from '../../test/rest-platform.js';
import type { ListSpec } from './index.js';
import type { Session } from '../../test/rest-platform.js';

let system: RestEndSystem;
beforeAll(async () => {
  system = await startRestEndSystem();
});
afterAll(() => system.close());
beforeEach(() => system.reset());

const fields = {
  id: { from: 'id', name: 'Id', readOnly: true },
  status: { from: 'status.name', name: 'Status' },
} as const;

/** An entity type listed by `list`, searched by status with query parameters, or in memory with `memory`. */
const listed = (list: ListSpec<Session>, memory = false) =>
  api.entity(IssueSchema, {
    name: 'Issue',
    id: 'id',
    fields,
    list,
    search: { by: { status: memory ? ['EQUALS', 'IN'] : { EQUALS: 'status', IN: 'status' } } },
  });

const LISTS: Readonly<Record<string, ListSpec<Session>>> = {
  offset: { path: 'issues', paging: { offset: 'offset', limit: 'limit', max: 5 } },
  page: {
    path: 'pages/issues',
    items: 'results',
    paging: { page: 'page', size: 'size', pageSize: 5 },
  },
  cursor: {
    path: 'cursor/issues',
    items: 'data',
    paging: { cursor: 'cursor', next: 'paging.next', size: { param: 'count', value: 5 } },
  },
  link: { path: 'linked/issues', paging: { link: true, size: { param: 'per_page', value: 5 } } },
  none: { path: 'issues' },
};

const entities = Object.fromEntries(
  Object.entries(LISTS).flatMap(([name, list]) => [
    [name, listed(list)],
    [`${name}-memory`, listed(list, true)],
  ]),
);
const platform = () => platformFor(system, { entities });

const ids = (answer: Answer): string[] =>
  (answer.body.entities as { fields: { id: string } }[]).map((entity) => entity.fields.id);
const ALL = Array.from({ length: 12 }, (_, index) => `I-${String(index + 1).padStart(2, '0')}`);
const EVERY = { query: { field: 'status', condition: 'IN', values: ['Open', 'Done'] } };
const OPEN = { query: { field: 'status', condition: 'EQUALS', value: 'Open' } };
const WINDOWS = [
  [0, 5],
  [3, 4],
  [4, 7],
  [5, 5],
  [10, 5],
  [12, 3],
  [0, 100],
] as const;

describe.each(Object.keys(LISTS))('%s paging', (style) => {
  it.each(WINDOWS)(
    'answers exactly the window from %i, %i long',
    async (startIndex, maxResults) => {
      const answer = await platform().search(style, EVERY, { startIndex, maxResults });
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual(ALL.slice(startIndex, startIndex + maxResults));
      expect(answer.body.nextPageLinkSupported).toBe(false);
    },
  );

  it('sends the search’s parameters with every page', async () => {
    const answer = await platform().search(style, OPEN, { startIndex: 2, maxResults: 5 });
    const open = ALL.filter((_, index) => (index + 1) % 3 !== 0);
    expect(ids(answer)).toEqual(open.slice(2, 7));
    expect(system.received().length).toBeGreaterThan(0);
    for (const received of system.received()) expect(received.query.status).toBe('Open');
  });

  it('reads the whole list for a search answered in memory', async () => {
    const done = { query: { field: 'status', condition: 'EQUALS', value: 'Done' } };
    const answer = await platform().search(`${style}-memory`, done, {
      startIndex: 1,
      maxResults: 2,
    });
    expect(ids(answer)).toEqual(['I-06', 'I-09']);
  });
});

describe('the requests each paging sends', () => {
  const queries = () => system.received().map((received) => received.query);
  const window = { startIndex: 3, maxResults: 4 };

  it('offset: one request for the window', async () => {
    await platform().search('offset', OPEN, window);
    expect(queries()).toEqual([{ status: 'Open', offset: '3', limit: '4' }]);
  });

  it('page: the pages the window spans, numbered from 1', async () => {
    await platform().search('page', OPEN, window);
    expect(queries()).toEqual([
      { status: 'Open', page: '1', size: '5' },
      { status: 'Open', page: '2', size: '5' },
    ]);
  });

  it('cursor: the first page, then the cursor the answer gave', async () => {
    await platform().search('cursor', OPEN, window);
    expect(queries()).toEqual([
      { status: 'Open', count: '5' },
      { status: 'Open', count: '5', cursor: btoa('5') },
    ]);
  });

  it('link: the first page, then the URL of rel="next"', async () => {
    await platform().search('link', OPEN, window);
    expect(queries()).toEqual([
      { status: 'Open', per_page: '5' },
      { status: 'Open', per_page: '5', after: '5' },
    ]);
    expect(system.received().map((received) => received.path)).toEqual([
      'linked/issues',
      'linked/issues',
    ]);
  });

  it('none: one request, the window cut in memory', async () => {
    const answer = await platform().search('none', OPEN, window);
    expect(ids(answer)).toEqual(['I-05', 'I-07', 'I-08', 'I-10']);
    expect(queries()).toEqual([{ status: 'Open' }]);
  });
});

describe('a search request of its own', () => {
  it('is sent, with its own items and paging, instead of the list', async () => {
    const searched = api.entity(IssueSchema, {
      name: 'Issue',
      id: 'id',
      fields,
      list: 'issues',
      search: {
        by: { status: { EQUALS: 'status' } },
        request: { ...LISTS.page, query: { expand: 'all' } } as ListSpec<Session>,
      },
    });
    const answer = await platformFor(system, { entities: { searched } }).search('searched', OPEN, {
      startIndex: 4,
      maxResults: 2,
    });
    expect(ids(answer)).toEqual(['I-07', 'I-08']);
    expect(system.received().map(({ path, query }) => ({ path, query }))).toEqual([
      { path: 'pages/issues', query: { expand: 'all', status: 'Open', page: '1', size: '5' } },
      { path: 'pages/issues', query: { expand: 'all', status: 'Open', page: '2', size: '5' } },
    ]);
  });
});

describe('refusals', () => {
  it('refuses a Link header whose next page is on another origin (502), its URL never called', async () => {
    system.linkTo(`http://localhost:${system.port}`);
    const answer = await platform().search('link', EVERY, { startIndex: 0, maxResults: 12 });
    expect(answer.status).toBe(502);
    expect(answer.body).toEqual(errorBody('END_SYSTEM_ERROR'));
    expect(system.received()).toHaveLength(1);
  });

  it('refuses a window over the server info’s maxResults with a 400, before calling the end system', async () => {
    const answer = await platform().search('offset', EVERY, { startIndex: 0, maxResults: 101 });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.message).toContain('maxResults');
    expect(system.received()).toEqual([]);
  });
});

describe('paging the module gets wrong', () => {
  it('offset: a window larger than the end system’s max limit is read in several requests', async () => {
    system.capLimit(5);
    const answer = await platform().search('offset', EVERY, { startIndex: 2, maxResults: 8 });
    expect(ids(answer)).toEqual(ALL.slice(2, 10));
  });

  it('link: a list that declares its own query still follows the next URL', async () => {
    const list = { ...LISTS.link, query: { q: 'Issue' } } as ListSpec<Session>;
    const answer = await platformFor(system, { entities: { link: listed(list) } }).search(
      'link',
      EVERY,
    );
    expect(ids(answer)).toEqual(ALL);
  });

  it('cursor: a numeric next cursor goes on to the next page', async () => {
    const numeric = {
      ...LISTS.cursor,
      paging: { cursor: 'cursor', next: 'paging.nextIndex', size: { param: 'count', value: 5 } },
    } as ListSpec<Session>;
    const answer = await platformFor(system, { entities: { cursor: listed(numeric) } }).search(
      'cursor',
      EVERY,
    );
    expect(ids(answer)).toEqual(ALL);
  });
});
