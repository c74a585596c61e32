// The end system to develop and test against, read from the environment, so that no secret sits in a file of
// the project. `npm test` and `npm run dev` read the same variables:
//   END_SYSTEM_URL            the API's base URL, as a user would type it into the platform's form
//   END_SYSTEM_TOKEN_URL      the authorization server's token endpoint
//   END_SYSTEM_CLIENT_ID      the OAuth2 client's id
//   END_SYSTEM_CLIENT_SECRET  that client's secret
//   END_SYSTEM_USER, END_SYSTEM_PASSWORD  a user, for the password grant (else the client logs in as itself)
//   END_SYSTEM_SCOPE          the scope to ask for (optional)
//   END_SYSTEM_REVOCATION_URL the revocation endpoint (optional)
//   CONNECTOR_SDK_EGRESS_ALLOW  further hosts, wildcard domains or address ranges the connector may reach,
//                        comma-separated. The hosts of the URLs above are allowed without it: a deployed
//                        connector reaches public addresses only unless its operator sets this variable.

/** The end system named by the environment: the configuration a user would type, and what it may reach. */
export interface EndSystem {
  readonly config: Readonly<Record<string, string>>;
  /** What the connector may reach besides public addresses: the hosts of its URLs, and the operator's list. */
  readonly egressAllow: readonly string[];
}

const REQUIRED = {
  END_SYSTEM_URL: 'url',
  END_SYSTEM_TOKEN_URL: 'tokenUrl',
  END_SYSTEM_CLIENT_ID: 'clientId',
  END_SYSTEM_CLIENT_SECRET: 'clientSecret',
} as const;
const OPTIONAL = {
  END_SYSTEM_REVOCATION_URL: 'revocationUrl',
  END_SYSTEM_USER: 'username',
  END_SYSTEM_PASSWORD: 'password',
  END_SYSTEM_SCOPE: 'scope',
} as const;

/**
 * The end system the environment names, or the variables that are missing.
 *
 * @throws Error when a URL variable is not a URL
 */
export function endSystemFromEnvironment(
  env: Readonly<Record<string, string | undefined>> = process.env,
): EndSystem | { readonly missing: readonly string[] } {
  const missing = Object.keys(REQUIRED).filter(
    (name) => (env[name] ?? '') === '',
  );
  if (missing.length > 0) return { missing };
  const config: Record<string, string> = {};
  for (const [name, key] of Object.entries({ ...REQUIRED, ...OPTIONAL }))
    if ((env[name] ?? '') !== '') config[key] = env[name] ?? '';
  const urls = [
    'END_SYSTEM_URL',
    'END_SYSTEM_TOKEN_URL',
    'END_SYSTEM_REVOCATION_URL',
  ];
  const hosts = urls.flatMap((name) => {
    const value = env[name] ?? '';
    if (value === '') return [];
    try {
      // An IPv6 host comes in brackets ([::1]); an allow list names the address alone.
      return [new URL(value).hostname.replace(/^\[(.*)\]$/, '$1')];
    } catch {
      throw new Error(`${name} is not a URL, such as https://api.example.com`);
    }
  });
  const operator = (env.CONNECTOR_SDK_EGRESS_ALLOW ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return { config, egressAllow: [...new Set([...hosts, ...operator])] };
}
