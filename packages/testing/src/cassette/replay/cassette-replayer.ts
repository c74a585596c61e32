import { SecretSet } from '../../secrets/secret-forms.js';
import {
  bodyContent,
  type CassetteBody,
  type CassetteExchange,
  type CassetteFile,
  type CassetteRequest,
} from '../cassette-file.js';
import { CassetteMismatchError } from '../cassette-errors.js';
import {
  DEFAULT_MATCH,
  differingParts,
  originOf,
  partText,
  pathAndQuery,
  putBack,
  type CassetteMatchPart,
  type CassetteMatcher,
} from './replay-match.js';

/** Statuses whose answers have no body. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The value a replay hands out for a secret it never saw sent: a login's token, say. */
const replayedSecret = (n: number) => `replayed-secret-${n}`;

function putBackValue(value: unknown, known: Map<number, string>): unknown {
  if (typeof value === 'string') return putBack(value, known);
  if (Array.isArray(value)) return value.map((item) => putBackValue(item, known));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, putBackValue(item, known)]),
    );
  return value;
}

/** A short excerpt of two texts where they first differ. */
function excerpt(recorded: string, sent: string): string {
  let at = 0;
  while (at < recorded.length && at < sent.length && recorded[at] === sent[at]) at++;
  const from = Math.max(0, at - 30);
  const cut = (text: string) =>
    `${from > 0 ? '…' : ''}${text.slice(from, at + 50)}${text.length > at + 50 ? '…' : ''}`;
  return `recorded ${JSON.stringify(cut(recorded))}\n    sent     ${JSON.stringify(cut(sent))}`;
}

/** How a replayer reads the requests it answers. @internal */
export interface ReplayerOptions {
  /** Which recorded exchange answers a request. @default DEFAULT_MATCH */
  readonly match?: CassetteMatcher | undefined;
  /**
   * The origin a replay server answers at, once listening: the recorded origins point there, so a request to it
   * stands for a request to the recorded exchange's origin.
   */
  readonly servedAt?: () => string;
  /**
   * Whether `answer`'s secrets are the request's own (core's tap gives them), so that a placeholder not known
   * yet binds only one of them. @default false
   */
  readonly secretsAreSent?: boolean;
}

/**
 * Answers the requests of a replay from a cassette: per test, the first recorded exchange not used yet that
 * matches, its answer with the secrets known so far put back (and those never sent handed out as
 * `replayed-secret-N`, so a login's token flows on into the next request).
 *
 * @internal
 */
export class CassetteReplayer {
  readonly #file: CassetteFile;
  readonly #where: string;
  readonly #match: CassetteMatcher;
  readonly #known = new Map<number, string>();
  readonly #used = new Map<string, Set<number>>();
  readonly #options: ReplayerOptions;
  #section = 'default';
  /** The requests no recorded exchange answered, in order, their messages masked. */
  readonly mismatches: CassetteMismatchError[] = [];

  /**
   * @param file - the cassette
   * @param where - the cassette's path, as a mismatch names it
   * @param options - how requests are matched and read
   */
  constructor(file: CassetteFile, where: string, options: ReplayerOptions = {}) {
    this.#file = file;
    this.#where = where;
    this.#match = options.match ?? DEFAULT_MATCH;
    this.#options = options;
  }

  /** The request as sent to the recorded exchange's origin, when it reached a replay server. */
  #aligned(recorded: CassetteRequest, sent: CassetteRequest): CassetteRequest {
    const served = this.#options.servedAt?.();
    const origin = originOf(sent.url);
    if (served === undefined || origin !== originOf(served)) return sent;
    const at = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(sent.url)?.[0].length ?? 0;
    const to = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(recorded.url)?.[0] ?? '';
    return { ...sent, url: `${to}${sent.url.slice(at)}` };
  }

  /** The test whose exchanges answer from now on. */
  section(name: string): void {
    this.#section = name;
  }

  /** The exchanges of the current test, and which of them answered already. */
  #current(): { exchanges: readonly CassetteExchange[]; used: Set<number> } {
    const exchanges = this.#file.tests[this.#section] ?? [];
    let used = this.#used.get(this.#section);
    if (used === undefined) this.#used.set(this.#section, (used = new Set()));
    return { exchanges, used };
  }

  /**
   * The recorded answer to a request.
   *
   * @param sent - the request as the connector sent it
   * @param secrets - the request's secrets, masked in a mismatch's message
   * @param ResponseClass - the class of the answer @default the global `Response`
   * @throws CassetteMismatchError when no recorded exchange matches (also kept in `mismatches`)
   */
  answer(
    sent: CassetteRequest,
    secrets: readonly string[],
    ResponseClass: typeof Response = Response,
  ): Response {
    const { exchanges, used } = this.#current();
    const sentSecrets = this.#options.secretsAreSent === true ? secrets : [];
    const found = exchanges.findIndex(
      (exchange, index) =>
        !used.has(index) &&
        this.#matches(exchange.request, this.#aligned(exchange.request, sent), sentSecrets),
    );
    if (found === -1) {
      const error = this.#mismatch(sent, secrets);
      this.mismatches.push(error);
      throw error;
    }
    used.add(found);
    return this.#response(exchanges[found] as CassetteExchange, ResponseClass);
  }

  #matches(recorded: CassetteRequest, sent: CassetteRequest, secrets: readonly string[]): boolean {
    if (typeof this.#match === 'function') {
      const known = this.#known;
      const back = JSON.parse(putBack(JSON.stringify(recorded), known)) as CassetteRequest;
      return this.#match(back, sent);
    }
    const parts = this.#match;
    return differingParts(recorded, sent, { parts, known: this.#known, secrets }).length === 0;
  }

  #response(exchange: CassetteExchange, ResponseClass: typeof Response): Response {
    const { response } = exchange;
    // Every placeholder of the answer gets a value: one the connector sent, or one handed out now.
    const text = JSON.stringify(response);
    for (const found of text.matchAll(/\{\{secret:(\d+)\}\}/g)) {
      const n = Number(found[1]);
      if (!this.#known.has(n)) this.#known.set(n, replayedSecret(n));
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers))
      for (const item of typeof value === 'string' ? [value] : value)
        headers.append(name, putBack(item, this.#known));
    const body: CassetteBody | undefined =
      response.body && 'json' in response.body
        ? { json: putBackValue(response.body.json, this.#known) }
        : response.body && 'text' in response.body
          ? { text: putBack(response.body.text, this.#known) }
          : response.body;
    const content = NO_BODY.has(response.status) ? undefined : bodyContent(body);
    return new ResponseClass(content ?? null, { status: response.status, headers });
  }

  /** The recorded headers the request sent otherwise, by name only: their values may be secrets. */
  #headerNames(
    recorded: CassetteRequest,
    sent: CassetteRequest,
    part: 'headers' | 'credentials',
  ): string[] {
    return Object.keys(recorded.headers).filter(
      (name) =>
        differingParts(
          { ...recorded, headers: { [name]: recorded.headers[name] as string } },
          sent,
          { parts: [part], known: new Map(this.#known) },
        ).length > 0,
    );
  }

  #mismatch(sent: CassetteRequest, secrets: readonly string[]): CassetteMismatchError {
    const { exchanges, used } = this.#current();
    const mask = new SecretSet();
    for (const secret of [...secrets, ...this.#known.values()]) mask.add(secret);
    const name = `${sent.method} ${pathAndQuery(sent.url).path}`;
    const head = `No recorded exchange of test "${this.#section}" in ${this.#where} matches ${mask.mask(name)}`;
    if (exchanges.length === 0)
      return new CassetteMismatchError(
        `${head}: the cassette has no exchange for this test. Record it: CONNECTOR_SDK_RECORD=1`,
      );
    const parts: CassetteMatchPart[] =
      typeof this.#match === 'function' ? [...DEFAULT_MATCH] : [...this.#match];
    let best = -1;
    let bestDiff: CassetteMatchPart[] = [];
    const sentSecrets = this.#options.secretsAreSent === true ? secrets : [];
    exchanges.forEach((exchange, index) => {
      const diff = differingParts(exchange.request, this.#aligned(exchange.request, sent), {
        parts,
        known: new Map(this.#known),
        secrets: sentSecrets,
      });
      const better =
        best === -1 ||
        diff.length < bestDiff.length ||
        (diff.length === bestDiff.length && used.has(best) && !used.has(index));
      if (better) [best, bestDiff] = [index, diff];
    });
    const closest = (exchanges[best] as CassetteExchange).request;
    const shown = this.#aligned(closest, sent);
    const lines = bestDiff.map((part) =>
      part === 'headers' || part === 'credentials'
        ? `  ${part}: a header differs (${this.#headerNames(closest, shown, part).join(', ')})`
        : `  ${part}: ${excerpt(putBack(partText(closest, part), this.#known), partText(shown, part))}`,
    );
    if (bestDiff.length === 0)
      lines.push('  it was used already: the connector made this call more often than recorded');
    const recorded = `${closest.method} ${pathAndQuery(closest.url).path}`;
    return new CassetteMismatchError(
      mask.mask(
        `${head}.\nClosest recorded: exchange ${best + 1}, ${recorded}${used.has(best) ? ' (used)' : ''}\n${lines.join('\n')}`,
      ),
    );
  }
}
