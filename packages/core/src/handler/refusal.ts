import type { ConnectorError } from '../errors/connector-error.js';

/**
 * An error answered without being thrown. For refusals so common that throwing them cost more than the rest of
 * the answer (a 401 to a call without a session: V8 records where every throw happened; ARCHITECTURE.md, D20).
 * The handler answers `error` as it would the same error thrown.
 *
 * @internal
 */
export class Refusal {
  constructor(readonly error: ConnectorError) {}
}
