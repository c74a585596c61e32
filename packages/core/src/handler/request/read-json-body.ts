import { ValidationError } from '../../errors/errors.js';
import type { ConnectorRequest } from '../../contract/connector-request.js';
import { MAX_JSON_DEPTH, nestedDeeperThan, textNestsDeeperThan } from '../../body/json-depth.js';

/**
 * The request body as parsed JSON, refused when it nests deeper than {@link MAX_JSON_DEPTH}. A promise only when
 * the body must still be read.
 *
 * @internal
 */
export function readJsonBody(request: ConnectorRequest): unknown {
  if (request.body !== undefined || request.text === undefined) return checkDepth(request.body);
  // Promise.resolve: a binding's text() may answer a thenable or another realm's promise, which callers that
  // test for a native Promise would take for the body itself.
  return Promise.resolve(request.text()).then(parseJsonText);
}

function parseJsonText(text: string): unknown {
  if (text.trim() === '') return undefined;
  // Judged on the text, before parsing: see `textNestsDeeperThan`.
  if (textNestsDeeperThan(text, MAX_JSON_DEPTH)) throw tooDeep();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // No cause: V8's message quotes the input around the error, which may hold a secret.
    throw new ValidationError('The request body is not valid JSON', { code: 'INVALID_JSON' });
  }
}

/** A body a binding parsed already (Express's `req.body`): judged by walking it. */
function checkDepth(body: unknown): unknown {
  if (nestedDeeperThan(body, MAX_JSON_DEPTH)) throw tooDeep();
  return body;
}

const tooDeep = () =>
  new ValidationError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels`, {
    code: 'INVALID_JSON',
  });
