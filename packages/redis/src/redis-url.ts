// The URL forms an operator can give for each Redis topology. One node keeps node-redis's own
// `redis[s]://` URL. Sentinel takes the `redis+sentinel://` form that Python's Redis-Sentinel-Url package
// defined and Prefect, docket and RedisVL accept: the sentinels comma-separated, then the master name and an
// optional database. A Cluster takes the same shape with `redis+cluster://` and seed nodes; Redis has no
// standard URL for either (Lettuce spells Sentinel `redis-sentinel://...#master`), so these are the closest to
// what operators already write. Parsed by hand: WHATWG URL refuses comma-separated hosts.

/** Where one Redis process listens. */
export interface RedisNodeAddress {
  readonly host: string;
  readonly port: number;
}

/** What a Redis URL names: one node, a Cluster's seed nodes, or the sentinels of one primary. */
export type RedisTopology =
  | { readonly kind: 'node'; readonly url: string }
  | {
      readonly kind: 'cluster';
      readonly nodes: readonly RedisNodeAddress[];
      readonly tls: boolean;
      readonly username?: string | undefined;
      readonly password?: string | undefined;
    }
  | {
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisNodeAddress[];
      readonly masterName: string;
      readonly database?: number | undefined;
      readonly tls: boolean;
      readonly username?: string | undefined;
      readonly password?: string | undefined;
    };

const FORM = /^(rediss?)\+(cluster|sentinel):\/\/(?:([^@/]*)@)?([^/?#]+)(\/[^?#]*)?$/i;

/**
 * Reads a Redis URL: `redis[s]://` (one node), `redis[s]+cluster://[user:password@]host:port[,host:port...]`
 * or `redis[s]+sentinel://[user:password@]host[:port][,host[:port]...]/<master name>[/<db>]` (sentinels on
 * 26379 unless a port is given). Credentials name the data nodes' user; errors never quote the URL, nor carry
 * it as a `cause` or `input`.
 *
 * @param url - the URL, as an operator set it
 * @returns the topology it names
 * @throws TypeError naming what is wrong, without the URL
 */
export function parseRedisUrl(url: string): RedisTopology {
  const scheme = /^([a-z+]+):\/\//i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'redis' || scheme === 'rediss') {
    // node-redis would throw node's own TypeError, whose `input` holds the URL and its password.
    try {
      new URL(url);
    } catch {
      throw new TypeError(
        'A redis:// URL is redis[s]://[user:password@]host[:port][/db], with a port from 1 to 65535 (see docs/deploying.md)',
      );
    }
    return { kind: 'node', url };
  }
  const match = FORM.exec(url);
  if (match === null)
    throw new TypeError(
      'A Redis URL starts with redis://, rediss://, redis+cluster:// or redis+sentinel:// (see docs/deploying.md)',
    );
  const [, base = '', kind = '', userInfo, hostList = '', path = ''] = match;
  const tls = base.toLowerCase() === 'rediss';
  const credentials = readUserInfo(userInfo);
  const defaultPort = kind.toLowerCase() === 'cluster' ? 6379 : 26379;
  const nodes = hostList.split(',').map((text) => readAddress(text, defaultPort));
  const segments = path.split('/').filter((segment) => segment !== '');
  if (kind.toLowerCase() === 'cluster') {
    if (segments.length > 0)
      throw new TypeError('A redis+cluster:// URL has no path: a Cluster has database 0 only');
    return { kind: 'cluster', nodes, tls, ...credentials };
  }
  const [name, database, ...rest] = segments;
  if (name === undefined || rest.length > 0)
    throw new TypeError('A redis+sentinel:// URL ends with /<master name> and an optional /<db>');
  if (database !== undefined && !/^\d{1,5}$/.test(database))
    throw new TypeError("A redis+sentinel:// URL's database is a number");
  return {
    kind: 'sentinel',
    sentinels: nodes,
    masterName: decodeURIComponent(name),
    database: database === undefined ? undefined : Number(database),
    tls,
    ...credentials,
  };
}

function readUserInfo(text: string | undefined): { username?: string; password?: string } {
  if (text === undefined || text === '') return {};
  const colon = text.indexOf(':');
  const user = decodeURIComponent(colon < 0 ? text : text.slice(0, colon));
  const password = colon < 0 ? undefined : decodeURIComponent(text.slice(colon + 1));
  return {
    ...(user === '' ? {} : { username: user }),
    ...(password === undefined ? {} : { password }),
  };
}

function readAddress(text: string, defaultPort: number): RedisNodeAddress {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(text.trim());
  const port = match?.[2] === undefined ? defaultPort : Number(match[2]);
  if (match?.[1] === undefined || !(port >= 1 && port <= 65_535))
    throw new TypeError('Each host in a Redis URL is host or host:port, comma-separated');
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}
