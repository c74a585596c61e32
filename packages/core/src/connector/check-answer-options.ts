// The answer and upload options of an operation that cannot work (a status other than 200 or 204, a body on a
// 204, an upload on a GET), refused when the connector is defined rather than on the first request.
import type { Operation, OperationMethod } from './operation.js';

/**
 * Refuses answer options that cannot work, when the connector is defined rather than on the first request.
 *
 * @internal
 */
export function checkAnswerOptions(
  operation: string,
  method: OperationMethod,
  schemas: Operation<never>['schemas'],
): void {
  const { status, answerAs, upload } = schemas;
  if (status !== undefined && status !== 200 && status !== 204)
    throw new TypeError(`Operation ${operation}: status must be 200 or 204, not ${String(status)}`);
  if (answerAs !== undefined && answerAs !== 'json' && answerAs !== 'text' && answerAs !== 'base64')
    throw new TypeError(
      `Operation ${operation}: answerAs must be 'json', 'text' or 'base64', not ${String(answerAs)}`,
    );
  if (status === 204 && answerAs !== undefined)
    throw new TypeError(`Operation ${operation}: a 204 has no body, so answerAs does not apply`);
  if (upload === undefined) return;
  if (method === 'GET' || method === 'DELETE')
    throw new TypeError(`Operation ${operation}: a ${method} has no body to upload`);
  if (schemas.body !== undefined)
    throw new TypeError(`Operation ${operation}: an upload has no JSON body; give upload or body`);
  const fields = [...(upload.required ?? []), ...(upload.optional ?? [])];
  if (fields.includes('file') || fields.includes('field'))
    throw new TypeError(
      `Operation ${operation}: an upload's text fields cannot be named "file" or "field" (the body's file and field())`,
    );
  const names = [upload.file, ...fields];
  if (
    names.some((name) => typeof name !== 'string' || name === '') ||
    new Set(names).size !== names.length
  )
    throw new TypeError(
      `Operation ${operation}: the upload's file and field names must be distinct, non-empty strings`,
    );
}
