import type { z } from 'zod';
import type { Operation } from '../../connector/operation.js';
import { ConnectorError } from '../../errors/connector-error.js';
import { ValidationError } from '../../errors/errors.js';
import { networkFailure } from '../../errors/network-failure.js';
import type { ConnectorResponse } from '../../contract/connector-request.js';
import type { HandlerRuntime } from '../handler-runtime.js';
import { openSession } from './open-session.js';
import type { VerifiedSession } from './read-session.js';
import { Refusal } from '../refusal.js';
import { readJsonBody } from '../request/read-json-body.js';
import { MAX_DESCRIBED_PROBLEMS, describeProblem, joinProblems } from '../request/read-fields.js';
import { OperationContextImpl, type RequestScope } from '../request-scope.js';
import type { RawQuery } from '../../contract/connector-request.js';
import { base64Stream } from '../../files/file-content.js';
import { Upload } from '../../files/upload.js';

/** Zod's issues as `'where.path' message` sentences. */
function describeIssues(issues: readonly z.core.$ZodIssue[], where: string): string[] {
  return issues.map((issue) =>
    describeProblem(
      issue.path.length === 0 ? where : `${where}.${issue.path.join('.')}`,
      issue.message,
    ),
  );
}

/** The built-in `then`, as `await` calls it on a native promise, whatever the promise or its prototype carries. */
const promiseThen = Promise.prototype.then;

/**
 * A handler's answer settled as `await` settles it, or `undefined` when `await` would not wait for it. A native
 * promise is followed with the built-in `then`; any other object or function whose `then` is a function (a query
 * builder, another realm's promise) has that `then` read once and called in a later microtask, as `await`
 * does. Anything else is the answer itself.
 *
 * @throws what reading `then` throws, as `await` would reject with it
 */
function awaited(value: unknown): Promise<unknown> | undefined {
  if (value instanceof Promise && value.constructor === Promise) return value as Promise<unknown>;
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return;
  const then: unknown = (value as { then?: unknown }).then;
  if (typeof then !== 'function') return;
  return new Promise((resolve, reject) => {
    queueMicrotask(() => {
      try {
        then.call(value, resolve, reject);
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseInput(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (schema === undefined) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { issues } = result.error;
  const problems = joinProblems(
    describeIssues(issues.slice(0, MAX_DESCRIBED_PROBLEMS), where),
    issues.length,
  );
  throw new ValidationError(`The ${where} is invalid: ${problems}`, {
    code: 'INVALID_INPUT',
  });
}

/** An operation's answer as it goes on the wire, when it is not the default JSON 200. @internal */
export class OperationReply {
  constructor(
    readonly status: number,
    readonly contentType: string | undefined,
    readonly body: string | ReadableStream<Uint8Array>,
  ) {}

  /** The answer as the handler gives it to a binding. */
  response(): ConnectorResponse {
    const headers: Record<string, string> =
      this.contentType === undefined ? {} : { 'content-type': this.contentType };
    return typeof this.body === 'string'
      ? { status: this.status, headers, body: this.body }
      : { status: this.status, headers, body: '', stream: this.body };
  }
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * Checks an answer against the operation's `answer` schema, when the handler validates answers.
 *
 * @throws ConnectorError `INVALID_OPERATION_RESULT` naming the operation and the path of each wrong value
 */
function checkAnswer(schema: z.ZodType, answer: unknown, name: string): void {
  const result = schema.safeParse(answer);
  if (result.success) return;
  const problems = describeIssues(result.error.issues.slice(0, 5), 'answer');
  throw new ConnectorError(
    'INVALID_OPERATION_RESULT',
    `Operation "${name}" answered what the platform cannot read: ${problems.join('; ')}`,
  );
}

/** What {@link OperationServer.serve} serves. */
interface OperationInput {
  readonly name: string;
  readonly operation: Operation<unknown>;
  readonly params: Readonly<Record<string, string>>;
  readonly query: RawQuery;
}

/**
 * Serves the later operations of a handler; made once per handler. Each call: verifies the session,
 * validates path, query and body with the operation's schemas and calls its handler. `undefined` and `null`
 * are answered as `{}`; an operation's `status`, `answerAs` and (with `validateAnswers`) `answer` schema
 * decide the rest.
 *
 * A call refused before connector code throws at once rather than rejecting, or (without a session) returns
 * its {@link Refusal}: see {@link openSession}. So does a call whose handler answers or throws without a
 * promise: the answer is returned as it is, not as a promise of it.
 *
 * @internal
 */
export class OperationServer {
  readonly #runtime: HandlerRuntime;

  constructor(runtime: HandlerRuntime) {
    this.#runtime = runtime;
  }

  /** Serves the operation `input` names for the request `state` serves. */
  serve(state: RequestScope, input: OperationInput): unknown {
    const opened = openSession(this.#runtime, state, { query: input.query });
    if (opened instanceof Refusal) return opened;
    return opened instanceof Promise
      ? opened.then((session) => this.#serveVerified(state, input, session))
      : this.#serveVerified(state, input, opened);
  }

  #serveVerified(state: RequestScope, input: OperationInput, session: VerifiedSession): unknown {
    const runtime = this.#runtime;
    const { request } = state;
    const { operation, params, query } = input;
    const { schemas } = operation;
    const parsedParams = parseInput(schemas.params, params, 'path');
    const parsedQuery = parseInput(schemas.query, query, 'query');
    // After the input is known to be valid (a bad call costs no end-system call), before any body is read.
    const checked = runtime.sessionChecks?.run(state, session);
    return checked === undefined ? serveChecked() : checked.then(serveChecked);

    function serveChecked(): unknown {
      if (schemas.upload !== undefined) {
        const uploadSchema = schemas.upload;
        return (async () => {
          const upload = await Upload.open(request, uploadSchema, runtime.uploadLimits);
          try {
            let answer: unknown;
            try {
              answer = await run(upload.body());
            } catch (error) {
              // A body that failed to arrive is what went wrong, even when connector code saw it only as a
              // failed end-system call (the end system's request body was the file).
              throw upload.failure ?? error;
            }
            if (upload.failure) throw upload.failure;
            await upload.finish();
            return answer;
          } finally {
            await upload.close();
          }
        })();
      }
      const readsBody =
        schemas.body !== undefined || (request.method !== 'GET' && request.method !== 'DELETE');
      const withBody = (body: unknown) => run(parseInput(schemas.body, body, 'body'));
      if (!readsBody) return withBody(undefined);
      const body = readJsonBody(request);
      return body instanceof Promise ? body.then(withBody) : withBody(body);
    }

    /**
     * Calls the handler with its context. A handler that answers without a promise is answered in the same
     * turn, with no promise of the SDK's: most calls answer from what the session holds, and a promise and
     * its turn of the event loop cost more than the rest of the operation's own work. A promise, or any
     * thenable (a query builder), is waited for as `await` would ({@link awaited}).
     */
    function run(body: unknown): unknown {
      const context = new OperationContextImpl(state, {
        session: session.values,
        params: parsedParams,
        query: parsedQuery,
        body,
        sdkSessionId: session.sdkSessionId,
        systemId: session.systemId,
        headers: request.headers,
      });
      let answer: unknown;
      try {
        answer = operation.handler(context as never);
        const settling = awaited(answer);
        if (settling !== undefined) return promiseThen.call(settling, answered, failed);
      } catch (error) {
        return failed(error);
      }
      return answered(answer);
    }

    function failed(error: unknown): never {
      runtime.sessionChecks?.failed(request.headers, error);
      throw error;
    }

    function answered(answer: unknown): unknown {
      if (schemas.status === 204) return new OperationReply(204, undefined, '');
      if (runtime.validateAnswers && schemas.answer !== undefined)
        checkAnswer(schemas.answer, answer, input.name);
      if (schemas.answerAs === 'base64')
        return base64Stream(answer, input.name, (error) => {
          state.log.error(
            // `cause` says what the end system did (a body timeout: it stopped sending).
            { err: error, operation: input.name, cause: networkFailure(error)?.cause },
            'the file answer failed part-way; the connection was cut off',
          );
        }).then((stream) => new OperationReply(200, TEXT, stream));
      if (schemas.answerAs !== 'text') return answer ?? {};
      if (typeof answer !== 'string')
        throw new ConnectorError(
          'INVALID_OPERATION_RESULT',
          `Operation "${input.name}" answers text, but returned ${answer === null ? 'null' : typeof answer}`,
        );
      return new OperationReply(200, TEXT, answer);
    }
  }
}
