import type { KoaContextWithOIDC, Provider } from 'oidc-provider';

/**
 * How the token endpoint misbehaves, as servers in front of a real one do: `html` answers 200 with a login
 * page (a login proxy or captive portal), `hang` never answers, `error-in-200` answers 200 with an RFC 6749
 * §5.2 error body, `unavailable` answers 503 with `Retry-After`, `forbidden` a plain-text 403 (a firewall in
 * front of the server).
 */
export type TokenEndpointFault = 'html' | 'hang' | 'error-in-200' | 'unavailable' | 'forbidden';

/** One call to an endpoint a client authenticates to. */
export interface EndpointCall {
  endpoint: 'token' | 'revocation' | 'introspection';
  /** `grant_type` of a token request oidc-provider parsed; absent for faults and other endpoints. */
  grantType?: string;
  /** The authenticated client, when authentication got that far. */
  clientId?: string;
  /**
   * How the client authenticated, read from the request: oidc-provider accepts either secret method from a
   * client registered with the other, so only this tells a test which one the code under test used.
   */
  clientAuth?: 'client_secret_basic' | 'client_secret_post' | 'private_key_jwt';
  /** Status answered; 0 while a hanging call is open. */
  status: number;
  fault?: TokenEndpointFault;
}

const loginPage =
  '<!doctype html><html><head><title>Sign in</title></head>' +
  '<body><form method="post" action="/login"><input name="username"><input name="password" type="password">' +
  '</form></body></html>';

/**
 * Logs every call to the token, revocation and introspection endpoints, so a test can assert "exactly one
 * refresh", and lets a test make the token endpoint misbehave for the next calls.
 */
export function installEndpointLog(
  provider: Provider,
  paths: Record<EndpointCall['endpoint'], string>,
) {
  const calls: EndpointCall[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const record = (call: EndpointCall) => {
    calls.push(call);
    for (const waiter of waiters.filter(({ count }) => calls.length >= count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };
  let fault: { mode: TokenEndpointFault; remaining: number } | undefined;

  provider.use(async (koaContext, next) => {
    const endpoint = (Object.keys(paths) as EndpointCall['endpoint'][]).find(
      (name) => paths[name] === koaContext.path,
    );
    if (endpoint === undefined || koaContext.method !== 'POST') return next();

    if (endpoint === 'token' && fault !== undefined) {
      const { mode } = fault;
      fault.remaining -= 1;
      if (fault.remaining <= 0) fault = undefined;
      if (mode === 'hang') {
        // Koa leaves the response alone; `close()` destroys the socket.
        koaContext.respond = false;
        record({ endpoint, status: 0, fault: mode });
        return;
      }
      if (mode === 'html') {
        koaContext.status = 200;
        koaContext.type = 'text/html; charset=utf-8';
        koaContext.body = loginPage;
      } else if (mode === 'error-in-200') {
        koaContext.status = 200;
        koaContext.body = { error: 'invalid_grant', error_description: 'grant request is invalid' };
      } else if (mode === 'forbidden') {
        koaContext.status = 403;
        koaContext.type = 'text/plain';
        koaContext.body = 'Forbidden';
      } else {
        koaContext.status = 503;
        koaContext.set('Retry-After', '1');
        koaContext.type = 'text/plain';
        koaContext.body = 'Service Unavailable';
      }
      record({ endpoint, status: koaContext.status, fault: mode });
      return;
    }

    try {
      await next();
    } finally {
      // oidc-provider adds `oidc` to the Koa context while it routes the request.
      const { oidc } = koaContext as unknown as Partial<KoaContextWithOIDC>;
      const params = oidc?.params ?? {};
      const clientAuth =
        params.client_assertion !== undefined
          ? 'private_key_jwt'
          : params.client_secret !== undefined
            ? 'client_secret_post'
            : /^basic /i.test(koaContext.get('authorization'))
              ? 'client_secret_basic'
              : undefined;
      record({
        endpoint,
        status: koaContext.status,
        ...(endpoint === 'token' && typeof params.grant_type === 'string'
          ? { grantType: params.grant_type }
          : {}),
        ...(oidc?.client ? { clientId: oidc.client.clientId } : {}),
        ...(clientAuth ? { clientAuth } : {}),
      });
    }
  });

  return {
    /** Calls so far, oldest first. */
    calls: (): readonly EndpointCall[] => calls,
    /** Forgets earlier calls. */
    clear() {
      calls.length = 0;
    },
    /** Resolves once `count` calls are logged: how a test knows a hanging request has arrived. */
    waitForCalls(count: number) {
      return new Promise<void>((resolve) => {
        if (calls.length >= count) resolve();
        else waiters.push({ count, resolve });
      });
    },
    /** Makes the next `times` token requests misbehave (every one until cleared, by default). */
    setFault(mode: TokenEndpointFault | undefined, times = Number.POSITIVE_INFINITY) {
      fault = mode === undefined ? undefined : { mode, remaining: times };
    },
  };
}
