import type { ServerResponse } from 'node:http';
import type { FakeFault } from './fake-fault.js';
import { errorBody, reply, send } from './fake-http.js';

/**
 * Answers a request with a fault instead of the normal answer (every kind but `slow`, which only delays).
 *
 * @param fault - the misbehaviour
 * @param res - the response to write
 * @internal
 */
export function applyFault(fault: Exclude<FakeFault, { kind: 'slow' }>, res: ServerResponse): void {
  switch (fault.kind) {
    case 'status':
      return reply(res, fault);
    case 'rate-limit':
      return reply(res, {
        status: 429,
        body: errorBody('RATE_LIMITED', 'Too many requests'),
        headers: {
          'retry-after':
            'retryAfterDate' in fault
              ? fault.retryAfterDate.toUTCString()
              : String(fault.retryAfterSeconds),
        },
      });
    case 'server-error':
      return send(res, fault.status ?? 500, errorBody('SERVER_ERROR', 'Something broke'));
    case 'malformed-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"records": [');
      return;
    case 'wrong-content-type':
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Sign in</body></html>');
      return;
    case 'auth-failure-in-body':
      return send(res, 200, {
        ok: false,
        error: errorBody('SESSION_EXPIRED', 'Please log in').error,
      });
    case 'reset':
      res.socket?.resetAndDestroy();
      return;
  }
}
