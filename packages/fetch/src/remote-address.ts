/**
 * Where a fetch handler learns the peer's address, for the handler's `initializeFrom`: a `Request` does not
 * carry it, so it comes from what the server passes beside the request, or from the `remoteAddress` option.
 */
export type RemoteAddressOf = (request: Request, server: unknown) => string | undefined;

/**
 * The peer's address as the common servers pass it beside the request: `@hono/node-server`'s `{ incoming }`
 * (a Node `IncomingMessage`) and Deno's `ServeHandlerInfo` (`{ remoteAddr: { hostname } }`). Anything else is
 * unknown, and `initializeFrom` then refuses (it fails closed).
 *
 * @internal
 */
export const serverRemoteAddress: RemoteAddressOf = (_request, server) => {
  const passed = server as
    | {
        incoming?: { socket?: { remoteAddress?: unknown } };
        remoteAddr?: { hostname?: unknown };
      }
    | null
    | undefined;
  const address = passed?.incoming?.socket?.remoteAddress ?? passed?.remoteAddr?.hostname;
  return typeof address === 'string' ? address : undefined;
};
