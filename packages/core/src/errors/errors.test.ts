import { describe, expect, it } from 'vitest';
import {
  ConnectorError,
  ERROR_STATUS,
  EndSystemError,
  ErrorBodySchema,
  ForbiddenError,
  InternalError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  ValidationError,
  formatErrorBody,
  isConnectorError,
  toConnectorError,
} from '../index.js';

describe('errors', () => {
  it.each([
    [new ValidationError('m'), 'ValidationError', 'VALIDATION_FAILED', 400],
    [new UnauthenticatedError('m'), 'UnauthenticatedError', 'SESSION_EXPIRED', 401],
    [new ForbiddenError('m'), 'ForbiddenError', 'FORBIDDEN', 403],
    [new RateLimitedError('m'), 'RateLimitedError', 'RATE_LIMITED', 403],
    [new NotFoundError('m'), 'NotFoundError', 'NOT_FOUND', 404],
    [new EndSystemError('m'), 'EndSystemError', 'END_SYSTEM_ERROR', 502],
    [
      new EndSystemError('m', { code: 'END_SYSTEM_TIMEOUT' }),
      'EndSystemError',
      'END_SYSTEM_TIMEOUT',
      504,
    ],
    [new InternalError('m'), 'InternalError', 'INTERNAL_ERROR', 500],
  ])(
    '%s has a literal name, its code and the status from the table',
    (error, name, code, status) => {
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      expect(error.status).toBe(status);
      expect(ERROR_STATUS[error.code]).toBe(status);
      expect(error).toBeInstanceOf(ConnectorError);
    },
  );

  it('keeps the cause and recognises errors from another copy of the package by brand', () => {
    const cause = new Error('root');
    expect(new ForbiddenError('m', { cause }).cause).toBe(cause);
    const foreign = Object.assign(new Error('x'), {
      [Symbol.for('@connector-sdk/core.ConnectorError')]: true,
    });
    expect(isConnectorError(foreign)).toBe(true);
    expect(isConnectorError(new Error('x'))).toBe(false);
  });

  it('normalises anything thrown', () => {
    expect(toConnectorError('a string')).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: 'The connector failed unexpectedly',
    });
    expect(toConnectorError(new DOMException('t', 'TimeoutError'))).toMatchObject({
      code: 'END_SYSTEM_TIMEOUT',
      status: 504,
    });
    const mapped = toConnectorError(new Error('x'), () => new NotFoundError('mapped'));
    expect(mapped.code).toBe('NOT_FOUND');
    expect(
      toConnectorError(new Error('x'), () => {
        throw new Error('bad mapper');
      }).code,
    ).toBe('INTERNAL_ERROR');
  });

  it('formats the contract body, passing the end-system code on and bounding sizes', () => {
    const body = formatErrorBody(
      new ValidationError('m'.repeat(5000), { endSystemCode: 'E42', detail: 'd' }),
      { redact: (t) => t },
    );
    expect(ErrorBodySchema.parse(body).errors.code).toBe('E42');
    expect(body.errors.message.length).toBeLessThanOrEqual(1001);
    expect(formatErrorBody(new NotFoundError('x'), { redact: (t) => t })).toEqual({
      errors: { code: 'NOT_FOUND', message: 'x' },
    });
  });

  it('ignores a negative or non-finite wait', () => {
    expect(new RateLimitedError('m', { retryAfterMs: -1 }).retryAfterMs).toBeUndefined();
    expect(new RateLimitedError('m', { retryAfterMs: Number.NaN }).retryAfterMs).toBeUndefined();
  });
});
