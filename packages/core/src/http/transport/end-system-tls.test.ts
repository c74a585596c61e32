import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHarness } from '../fixtures/client-harness.js';
import {
  makeTestCertificates,
  needsOpenssl,
  opensslMissing,
  startHttpsEndSystem,
  type TestCertificates,
} from '../fixtures/test-certificates.js';
import { createEndSystemClient } from '../index.js';

// The `tls` option against real HTTPS end systems on 127.0.0.1 whose certificates a CA of the tests' own signed
// (docs/end-system-client.md, "A private CA, a client certificate").
const { call, logger, logText } = clientHarness();

describe.skipIf(opensslMissing !== undefined)(needsOpenssl('the tls option'), () => {
  let certs: TestCertificates;
  let end: Awaited<ReturnType<typeof startHttpsEndSystem>>;
  let mutual: Awaited<ReturnType<typeof startHttpsEndSystem>>;
  let otherName: Awaited<ReturnType<typeof startHttpsEndSystem>>;

  beforeAll(async () => {
    certs = makeTestCertificates();
    end = await startHttpsEndSystem(certs.server);
    mutual = await startHttpsEndSystem(certs.server, certs.ca);
    otherName = await startHttpsEndSystem(certs.otherName);
  }, 30_000);
  afterAll(async () => {
    await Promise.all([end.close(), mutual.close(), otherName.close()]);
  });

  it('refuses an end system whose CA is not trusted, as 502 END_SYSTEM_UNREACHABLE naming the cause', async () => {
    const answer = await call({ baseUrl: end.url, retry: { limit: 0 } });
    expect(answer.status).toBe(502);
    expect(answer.json.errors).toMatchObject({
      code: 'END_SYSTEM_UNREACHABLE',
      message: 'The end system could not be reached (UNABLE_TO_VERIFY_LEAF_SIGNATURE)',
      // Node 24 adds a hint about --use-system-ca after the reason.
      detail: expect.stringMatching(
        /^GET https:\/\/127\.0\.0\.1:\d+\/item failed: UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate/,
      ),
    });
  });

  it('trusts a private CA given as tls.ca', async () => {
    const answer = await call({ baseUrl: end.url, tls: { ca: certs.ca } });
    expect(answer).toMatchObject({ status: 200, json: { ok: true, path: '/item' } });
  });

  it('takes the CA as a Buffer, in a list, or alone with trustDefaultRoots: false', async () => {
    for (const tls of [
      { ca: Buffer.from(certs.ca) },
      { ca: [certs.server.cert, certs.ca] },
      { ca: certs.ca, trustDefaultRoots: false },
    ]) {
      expect(await call({ baseUrl: end.url, tls })).toMatchObject({ status: 200 });
    }
  });

  it('keeps a CA to the clients that asked for it, whatever they share', async () => {
    // Same policy, same end system, one after the other: the pooled connection (and TLS session) made with the
    // CA must not serve the client without it.
    expect(await call({ baseUrl: end.url, tls: { ca: certs.ca } })).toMatchObject({ status: 200 });
    expect(await call({ baseUrl: end.url, retry: { limit: 0 } })).toMatchObject({
      status: 502,
      json: { errors: { code: 'END_SYSTEM_UNREACHABLE' } },
    });
    const otherPolicy = { refuse: ['203.0.113.0/24'] };
    expect(
      await call({ baseUrl: end.url, egress: otherPolicy, tls: { ca: certs.ca } }),
    ).toMatchObject({ status: 200 });
    expect(
      await call({ baseUrl: end.url, egress: otherPolicy, retry: { limit: 0 } }),
    ).toMatchObject({
      status: 502,
    });
  });

  it('still checks the name: a certificate of the trusted CA for another host is refused', async () => {
    const answer = await call({
      baseUrl: otherName.url,
      tls: { ca: certs.ca },
      retry: { limit: 0 },
    });
    expect(answer.status).toBe(502);
    expect(answer.json.errors).toMatchObject({
      code: 'END_SYSTEM_UNREACHABLE',
      message: 'The end system could not be reached (ERR_TLS_CERT_ALTNAME_INVALID)',
    });
  });

  it('sends a client certificate for mutual TLS, with an encrypted key and its passphrase too', async () => {
    const refused = await call({ baseUrl: mutual.url, tls: { ca: certs.ca }, retry: { limit: 0 } });
    expect(refused).toMatchObject({
      status: 502,
      json: { errors: { code: 'END_SYSTEM_UNREACHABLE' } },
    });
    const withCertificate = await call({
      baseUrl: mutual.url,
      tls: { ca: certs.ca, cert: certs.client.cert, key: certs.client.key },
    });
    expect(withCertificate).toMatchObject({ status: 200, json: { client: 'connector-client' } });
    const encrypted = await call({
      baseUrl: mutual.url,
      tls: {
        ca: certs.ca,
        cert: certs.client.cert,
        key: certs.encryptedClientKey,
        passphrase: certs.passphrase,
      },
    });
    expect(encrypted).toMatchObject({ status: 200, json: { client: 'connector-client' } });
    expect(logText()).not.toContain(certs.passphrase);
  });

  it('refuses options that cannot work when the client is made, quoting no key or passphrase', () => {
    const make = (tls: Parameters<typeof createEndSystemClient>[0]['tls']) => () =>
      createEndSystemClient({ baseUrl: end.url, tls });
    expect(make({ trustDefaultRoots: false })).toThrow(
      new TypeError('tls.trustDefaultRoots is false but tls.ca gives no CA to trust'),
    );
    expect(make({ ca: '/etc/ssl/private-ca.pem' })).toThrow(/holds no PEM certificate/);
    expect(make({ ca: [certs.ca, 'not a certificate'] })).toThrow(/^tls\.ca\[1\] holds no PEM/);
    expect(make({ ca: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' })).toThrow(
      /tls\.ca holds a certificate that cannot be read/,
    );
    expect(make({ cert: certs.client.cert })).toThrow(/tls\.cert and tls\.key go together/);
    const wrongPassphrase = make({
      cert: certs.client.cert,
      key: certs.encryptedClientKey,
      passphrase: 'wr0ng-passphrase-1',
    });
    expect(wrongPassphrase).toThrow(TypeError);
    expect(wrongPassphrase).toThrow(/^The end-system client's tls options could not be loaded: /);
    try {
      wrongPassphrase();
    } catch (error) {
      expect((error as Error).message).not.toContain('wr0ng-passphrase-1');
      expect((error as Error).message).not.toContain('PRIVATE KEY');
    }
    expect(make({ cert: certs.server.cert, key: certs.client.key })).toThrow(
      /could not be loaded: .*key values mismatch/,
    );
  });

  it('logs the certificate failure with its cause, and nothing of the CA or key', async () => {
    logger.lines.length = 0;
    await call({ baseUrl: end.url, retry: { limit: 0 } });
    const failed = logger.lines.find((line) => line.message === 'end-system call failed');
    expect(failed?.fields.endSystem).toMatchObject({
      url: `${end.url}/item`,
      error: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
    await call({
      baseUrl: mutual.url,
      tls: { ca: certs.ca, cert: certs.client.cert, key: certs.client.key },
    });
    expect(logText()).not.toContain('PRIVATE KEY');
  });
});
