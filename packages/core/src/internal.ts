/**
 * What the SDK's own bindings share with core and connectors must not use: `@connector-sdk/core/internal`. It
 * is not part of the public API (not in the reference, no semver promise) and may change in any release; the
 * public entry points stay free of anything tagged `@internal` (ARCHITECTURE.md, D25).
 *
 * @internal
 * @packageDocumentation
 */
export {
  BodyBudget,
  DEFAULT_BODY_LIMITS,
  bodyBudgetExceeded,
  bodyTimer,
  checkBodyTimeout,
} from './body/body-limits.js';
export { BodyWatch, declaredLength, firstHold, type WatchedBody } from './body/body-watch.js';
export {
  discardRest,
  readRequestText,
  requestBytes,
  stalledBody,
  type WebBodyLimits,
} from './body/read-web-body.js';
export { knownCallers, type KnownCaller } from './handler/later-call/known-callers.js';
export { isUnsafePath, originForm } from './handler/request/path-rule.js';
export { checkLogger } from './logging/logger.js';
export { FRAMING_HEADER_NAMES } from './security/header-safety.js';
export { Redactor } from './security/redaction/redactor.js';
export { isCredentialName } from './security/secret-names.js';
