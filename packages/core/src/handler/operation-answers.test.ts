import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { NotFoundError, createHandler, type HandlerOptions } from '../index.js';
import { bareConnector } from '../../test/acme-connector.js';
import { withSession } from '../../test/sessions.js';

const base = '/sdk/api/1.0';
const Issue = z.object({ id: z.string(), labels: z.array(z.string()).optional() });
let answer: unknown;
const connector = bareConnector(({ get, delete: del }) => ({
  getIssue: get('/issues/:id', { answer: Issue }, () => answer as z.input<typeof Issue>),
  removeIssue: del('/issues/:id', { status: 204 }, () => ({ gone: true })),
  fileName: get('/file-name', { answerAs: 'text' }, () => answer),
  // The answer of a function set by the test: called in the handler, as connector code runs.
  answers: get('/answers', () => (answer as () => Record<string, unknown>)()),
}));
const call = (path: string, method = 'GET', options: HandlerOptions = {}) =>
  withSession(createHandler(connector, options))({ method, path: `${base}${path}`, headers: {} });

describe('answers', () => {
  it('checks an answer against its schema with validateAnswers, naming the operation and the wrong value', async () => {
    answer = { id: 7, labels: ['a', null], extra: 'kept' };
    const response = await call('/issues/1', 'GET', { validateAnswers: true });
    expect(response.status).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      errors: {
        code: 'INVALID_OPERATION_RESULT',
        message:
          "Operation \"getIssue\" answered what the platform cannot read: 'answer.id': Invalid input: expected string, received number; 'answer.labels.1': Invalid input: expected string, received null",
      },
    });
    answer = { id: '7', extra: 'kept' };
    const good = await call('/issues/1', 'GET', { validateAnswers: true });
    expect(JSON.parse(good.body)).toEqual({ id: '7', extra: 'kept' });
  });

  it('sends the answer as it is without validateAnswers (the default)', async () => {
    answer = { id: 7 };
    const response = await call('/issues/1');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ id: 7 });
  });

  it('answers 204 with no body and no content type, whatever the handler returns', async () => {
    expect(await call('/issues/1', 'DELETE')).toEqual({ status: 204, headers: {}, body: '' });
  });

  it('answers text as text/plain, and anything but a string as a 500', async () => {
    answer = 'diagram (1).png';
    expect(await call('/file-name')).toEqual({
      status: 200,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      body: 'diagram (1).png',
    });
    answer = { name: 'x' };
    const wrong = await call('/file-name');
    expect(wrong.status).toBe(500);
    expect(JSON.parse(wrong.body)).toMatchObject({
      errors: {
        code: 'INVALID_OPERATION_RESULT',
        message: 'Operation "fileName" answers text, but returned object',
      },
    });
  });

  it('answers what a handler returned without a promise in the same turn, before any task it queued runs', async () => {
    const answered = { id: '1' };
    answer = () => {
      queueMicrotask(() => Object.assign(answered, { late: true }));
      return answered;
    };
    const response = await call('/answers');
    expect(JSON.parse(response.body)).toEqual({ id: '1' });
  });

  it('awaits a thenable that is not a promise (a query builder), and maps what it rejects with', async () => {
    let thens = 0;
    const builder = (outcome: () => unknown) => ({
      then(resolve: (value: unknown) => void, reject: (error: unknown) => void) {
        thens++;
        try {
          resolve(outcome());
        } catch (error) {
          reject(error);
        }
      },
    });
    answer = () => builder(() => ({ id: 'built' }));
    expect(JSON.parse((await call('/answers')).body)).toEqual({ id: 'built' });
    answer = () =>
      builder(() => {
        throw new NotFoundError('No such issue');
      });
    const refused = await call('/answers');
    expect(refused.status).toBe(404);
    expect(thens).toBe(2);
  });

  it("reads a thenable's then once, and follows a native promise by its built-in then, as await does", async () => {
    let reads = 0;
    answer = () => ({
      get then() {
        reads++;
        // A builder whose then is there once: read twice, the second read would find nothing.
        return reads === 1
          ? (resolve: (value: unknown) => void) => resolve({ id: 'once' })
          : undefined;
      },
    });
    expect(JSON.parse((await call('/answers')).body)).toEqual({ id: 'once' });
    expect(reads).toBe(1);
    answer = () => Object.assign(Promise.resolve({ id: 'native' }), { then: undefined });
    const native = await call('/answers');
    expect(native.status).toBe(200);
    expect(JSON.parse(native.body)).toEqual({ id: 'native' });
  });

  it("fails a call whose answer's then cannot be read as await would: the error is the handler's", async () => {
    answer = () => ({
      get then(): never {
        throw new NotFoundError('No such issue');
      },
    });
    const response = await call('/answers');
    expect(response.status).toBe(404);
    answer = () => {
      throw new NotFoundError('No such issue');
    };
    expect((await call('/answers')).status).toBe(404);
  });

  it.each([
    [{ status: 201 }, 'status must be 200 or 204, not 201'],
    [{ answerAs: 'xml' }, "answerAs must be 'json', 'text' or 'base64', not xml"],
    [{ status: 204, answerAs: 'text' }, 'a 204 has no body, so answerAs does not apply'],
  ])('refuses %j when the connector is defined', (options, message) => {
    expect(() =>
      bareConnector(({ get }) => ({ x: get('/x', options as never, () => ({})) })),
    ).toThrow(`Operation GET /x: ${message}`);
  });
});
