import { expect, it } from 'vitest';
import * as entry from './index.js';

it('exports exactly the public API', () => {
  expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
    [
      "API_VERSION",
      "BodyBudget",
      "ConnectorError",
      "DEFAULT_BODY_LIMITS",
      "ERROR_STATUS",
      "EndSystemError",
      "ErrorBodySchema",
      "ForbiddenError",
      "InternalError",
      "MIN_SECRET_LENGTH",
      "MIN_SESSION_KEY_LENGTH",
      "MemoryRateLimitStore",
      "MemoryStore",
      "NotFoundError",
      "ParameterEntrySchema",
      "ParameterListSchema",
      "REDACTED",
      "RateLimitedError",
      "SDK_SESSION_HEADERS",
      "SESSION_KEY_ENV",
      "Secret",
      "UnauthenticatedError",
      "ValidationError",
      "bodyBudgetExceeded",
      "createHandler",
      "defineConnector",
      "field",
      "formatErrorBody",
      "isConnectorError",
      "isSecret",
      "isUnsafePath",
      "secret",
      "secretForms",
      "silentLogger",
      "statusForCode",
      "toConnectorError",
      "z",
    ]
  `);
});
