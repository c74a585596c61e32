import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

// Who may use the console: it drives a connector with the developer's credentials, so a request must come from
// this machine (loopback peer, on a loopback address), name the console's own host and port (a page elsewhere
// can point a name of its own at 127.0.0.1: DNS rebinding), come from the console's own page when a browser
// says where it comes from (Origin, Sec-Fetch-Site), and carry the run's random token: in the page's address
// once, then in a header that a page of another origin cannot send without asking first (CORS preflight, which
// the console never grants).

/** The header the page sends the token in. */
export const TOKEN_HEADER = 'x-console-token';

function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const bare = address.startsWith('::ffff:') ? address.slice(7) : address;
  return isIP(bare) === 4 ? bare.startsWith('127.') : bare === '::1';
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The `token` of a request's query, read without a URL parser that could throw on what a stranger sends. */
function tokenInQuery(url: string): string | undefined {
  const match = /[?&]token=([^&#]*)/.exec(url);
  if (match?.[1] === undefined) return undefined;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return undefined;
  }
}

/**
 * Why a request to the console is refused, or `undefined` when it may be served.
 *
 * @param request - the request
 * @param console - the console's port and the run's token
 * @param tokenFrom - where this route takes the token: the page's query, or the API's header
 * @internal
 */
export function refusal(
  request: IncomingMessage,
  { port, token }: { readonly port: number; readonly token: string },
  tokenFrom: 'query' | 'header',
): string | undefined {
  if (process.env.NODE_ENV === 'production') return 'the console never serves in production';
  if (!isLoopback(request.socket.remoteAddress) || !isLoopback(request.socket.localAddress))
    return 'the console serves this machine only';
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  if (!hosts.includes(request.headers.host ?? '')) return 'the Host is not the console’s';
  const origin = request.headers.origin;
  if (origin !== undefined && !hosts.some((host) => origin === `http://${host}`))
    return 'a page of another origin may not use the console';
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return 'a page of another site may not use the console';
  const given =
    tokenFrom === 'header' ? request.headers[TOKEN_HEADER] : tokenInQuery(request.url ?? '');
  if (!sameToken(typeof given === 'string' ? given : undefined, token))
    return 'the console’s token is missing or wrong (it is printed in the terminal that started it)';
  return undefined;
}
