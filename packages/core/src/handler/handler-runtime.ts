import type { CompiledConnector } from '../connector/compile-connector.js';
import type { EndSystemAdapter } from '../connector/define-connector.js';
import type { FieldShape } from '../connector/field.js';
import type { UploadLimits } from '../files/upload.js';
import type { SessionKeys } from '../security/session-keys.js';
import type { SessionChecks } from './later-call/check-session.js';
import type { ConfigUrlJudge } from './initialize/judge-config-urls.js';
import type { InitializeAccess } from './initialize/initialize-access.js';
import type { RateLimiter } from './later-call/rate-limiter.js';
import type { TenantShares } from './later-call/tenant-shares.js';
import type { SessionReader } from './later-call/read-session.js';
import type { InitializeFlights } from './initialize/initialize-flights.js';

export type { SharedLogin } from './initialize/shared-login.js';

/**
 * What the handler decided once, at creation, for every request: the connector, the session keys, the rate
 * limit and the limits. The files that serve each kind of request read it.
 *
 * @internal
 */
export interface HandlerRuntime {
  readonly compiled: CompiledConnector;
  readonly adapter: EndSystemAdapter<FieldShape, FieldShape>;
  readonly keys: SessionKeys;
  readonly sessions: SessionReader;
  readonly rateLimit: RateLimiter | undefined;
  /** Each tenant's share of the calls in flight. */
  readonly tenantShares: TenantShares;
  readonly initializeFlights: InitializeFlights | undefined;
  readonly maxHeaderBytes: number;
  /** Whether operations' answers are checked against their `answer` schemas. */
  readonly validateAnswers: boolean;
  /** The bounds of an upload's body. */
  readonly uploadLimits: UploadLimits;
  /** Judges configured URLs by the operator's egress policy; absent when the connector has no URL field. */
  readonly configUrls: ConfigUrlJudge | undefined;
  /** Who may initialize: absent when anyone may. */
  readonly initializeAccess: InitializeAccess | undefined;
  /** The connector's `checkSession`, run before each later operation; absent without one. */
  readonly sessionChecks: SessionChecks | undefined;
}
