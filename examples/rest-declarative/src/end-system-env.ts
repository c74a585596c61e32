// The end system to develop and test against, read from the environment, so that no password sits in a file of
// the project. `npm test` and `npm run dev` read the same variables:
//   END_SYSTEM_URL       the API's base URL, as a user would type it into the platform's form
//   END_SYSTEM_USER      a user name the end system accepts
//   END_SYSTEM_PASSWORD  that user's password
//   CONNECTOR_SDK_EGRESS_ALLOW  further hosts, wildcard domains or address ranges the connector may reach,
//                        comma-separated. The host of END_SYSTEM_URL is allowed without it: a deployed
//                        connector reaches public addresses only unless its operator sets this variable.

/** The end system named by the environment. */
export interface EndSystem {
  readonly url: string;
  readonly username: string;
  readonly password: string;
  /** What the connector may reach besides public addresses: the end system's host, and the operator's list. */
  readonly egressAllow: readonly string[];
}

const NAMES = [
  'END_SYSTEM_URL',
  'END_SYSTEM_USER',
  'END_SYSTEM_PASSWORD',
] as const;

/**
 * The end system the environment names, or the variables that are missing.
 *
 * @throws Error when END_SYSTEM_URL is not a URL
 */
export function endSystemFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): EndSystem | { readonly missing: readonly string[] } {
  const missing = NAMES.filter((name) => (env[name] ?? '') === '');
  if (missing.length > 0) return { missing };
  const url = env.END_SYSTEM_URL ?? '';
  let host: string;
  try {
    // An IPv6 host comes in brackets ([::1]); an allow list names the address alone.
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  } catch {
    throw new Error(
      'END_SYSTEM_URL is not a URL, such as https://api.example.com',
    );
  }
  const operator = (env.CONNECTOR_SDK_EGRESS_ALLOW ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return {
    url,
    username: env.END_SYSTEM_USER ?? '',
    password: env.END_SYSTEM_PASSWORD ?? '',
    egressAllow: [host, ...operator],
  };
}
