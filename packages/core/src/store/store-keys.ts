// How the handler names its scopes and counters in a store. Connector names and system ids are encoded, the
// configuration fingerprint has a fixed length and no ':', and the last id is left as it is, so no two
// tuples give the same string whatever the platform sends as an id; stores then keep scopes apart themselves
// (see Store). The connector's name is part of every name, so connectors that share one store never see
// each other's entries. Every id here comes from a verified session (ARCHITECTURE.md, D2).

/**
 * @internal The scope of one session's cache: the session of one system, initialized with one configuration
 * (two systems may use the same session id, and so may a caller with another configuration).
 */
export function sessionScope(
  connector: string,
  session: {
    /** The keyed fingerprint of the configuration the session was initialized with. */
    readonly configuration: string;
    readonly systemId: string;
    readonly sdkSessionId: string;
  },
): string {
  const { configuration, systemId, sdkSessionId } = session;
  return `session:${encodeURIComponent(connector)}:${configuration}:${encodeURIComponent(systemId)}:${sdkSessionId}`;
}

/**
 * @internal The scope of one end system's cache, as configured: a caller who initializes the same system id
 * with another configuration gets a cache of its own.
 */
export function systemScope(connector: string, configuration: string, systemId: string): string {
  return `system:${encodeURIComponent(connector)}:${configuration}:${systemId}`;
}

/** @internal The counter of one rate-limit key. */
export function rateLimitCounter(connector: string, key: string): string {
  return `rate:${encodeURIComponent(connector)}:${key}`;
}
