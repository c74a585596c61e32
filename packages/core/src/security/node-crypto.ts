import type * as NodeCrypto from 'node:crypto';

let loaded: typeof NodeCrypto | undefined;

/**
 * Node's `crypto` module, loaded the first time the SDK signs, verifies or hashes rather than when core is
 * imported: loading it costs about 4 ms, a seventh of what the bench allows core to add to a connector's cold
 * start (ARCHITECTURE.md, D19), and no connector needs it before its handler is made. `process.getBuiltinModule`
 * (Node 20.16) loads a built-in synchronously, where a static import would load it with core.
 *
 * @internal
 */
export function nodeCrypto(): typeof NodeCrypto {
  return (loaded ??= process.getBuiltinModule('node:crypto'));
}
