// How the handler names its scopes and counters in a store. Connector names are encoded and the id comes
// last, so no two (kind, connector, id) triples give the same string whatever the platform sends as an id;
// stores then keep scopes apart themselves (see Store). The connector's name is part of every name, so
// connectors that share one store never see each other's entries.

/** @internal The scope of one session's cache. */
export function sessionScope(connector: string, sdkSessionId: string): string {
  return `session:${encodeURIComponent(connector)}:${sdkSessionId}`;
}

/** @internal The scope of one end system's cache. */
export function systemScope(connector: string, systemId: string): string {
  return `system:${encodeURIComponent(connector)}:${systemId}`;
}

/** @internal The counter of one rate-limit key. */
export function rateLimitCounter(connector: string, key: string): string {
  return `rate:${encodeURIComponent(connector)}:${key}`;
}
