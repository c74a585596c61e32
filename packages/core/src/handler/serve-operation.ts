import type { z } from 'zod';
import type { Operation } from '../connector/operation.js';
import { ValidationError } from '../errors/errors.js';
import type { ConnectorRequest } from './connector-request.js';
import type { HandlerRuntime } from './handler-runtime.js';
import { openSession } from './open-session.js';
import { readJsonBody } from './read-json-body.js';
import { describeProblem } from './read-fields.js';
import { OperationContextImpl, type RequestScope } from './request-scope.js';
import type { RawQuery } from '../connector/operation.js';

function parseInput(schema: z.ZodType | undefined, value: unknown, where: string): unknown {
  if (schema === undefined) return value;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) =>
    describeProblem(
      issue.path.length === 0 ? where : `${where}.${issue.path.join('.')}`,
      issue.message,
    ),
  );
  throw new ValidationError(`The ${where} is invalid: ${problems.join('; ')}`, {
    code: 'INVALID_INPUT',
  });
}

/**
 * A later operation: verifies the session, validates path, query and body with the operation's schemas and
 * calls its handler. `undefined` is answered as `{}`.
 *
 * @internal
 */
export async function serveOperation(
  runtime: HandlerRuntime,
  request: ConnectorRequest,
  state: RequestScope,
  input: {
    readonly operation: Operation<unknown>;
    readonly params: Readonly<Record<string, string>>;
    readonly query: RawQuery;
  },
): Promise<unknown> {
  const { operation, params, query } = input;
  const session = await openSession(runtime, request, state, { query });
  const { schemas } = operation;
  const readsBody =
    schemas.body !== undefined || (request.method !== 'GET' && request.method !== 'DELETE');
  const context = new OperationContextImpl(state, {
    session: session.values,
    params: parseInput(schemas.params, params, 'path'),
    query: parseInput(schemas.query, query, 'query'),
    body: parseInput(schemas.body, readsBody ? await readJsonBody(request) : undefined, 'body'),
    sdkSessionId: session.sdkSessionId,
    systemId: session.systemId,
    headers: request.headers,
  });
  return (await operation.handler(context as never)) ?? {};
}
