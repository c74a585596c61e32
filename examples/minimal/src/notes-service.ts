import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A note kept by the service. */
export interface Note {
  readonly id: string;
  readonly text: string;
  readonly author: string;
}

/** Why the service refused a call; the connector maps each reason to a contract error. */
export class NotesServiceError extends Error {
  override readonly name = 'NotesServiceError';
  constructor(
    readonly reason: 'bad-credentials' | 'token-expired' | 'not-found',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A tiny in-memory notes service standing in for an end system: it checks a user's password, issues signed
 * tokens that expire, and keeps notes. The full sample end system (a real HTTP server) comes in its own
 * example; this one keeps the minimal example self-contained.
 */
export class NotesService {
  readonly #users = new Map([['alice', 'wonderland']]);
  readonly #notes = new Map<string, Note>();
  readonly #key = randomBytes(32);
  readonly #tokenLifetimeMs: number;

  constructor(options: { tokenLifetimeMs?: number } = {}) {
    this.#tokenLifetimeMs = options.tokenLifetimeMs ?? 15 * 60_000;
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.#key).update(payload).digest('base64url');
  }

  /** Logs in and returns a token. */
  login(username: string, password: string): string {
    const expected = this.#users.get(username);
    const ok =
      expected !== undefined &&
      expected.length === password.length &&
      timingSafeEqual(Buffer.from(expected), Buffer.from(password));
    if (!ok) throw new NotesServiceError('bad-credentials', 'Unknown user or wrong password');
    const payload = Buffer.from(
      JSON.stringify({ sub: username, exp: Date.now() + this.#tokenLifetimeMs }),
    ).toString('base64url');
    return `${payload}.${this.#sign(payload)}`;
  }

  /** The user a token belongs to; throws when the token is forged or expired. */
  whoAmI(token: string): string {
    const [payload = '', signature = ''] = token.split('.');
    const expected = this.#sign(payload);
    if (
      signature.length !== expected.length ||
      !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
    ) {
      throw new NotesServiceError('token-expired', 'The token is not valid');
    }
    const { sub, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      sub: string;
      exp: number;
    };
    if (exp <= Date.now()) throw new NotesServiceError('token-expired', 'The token has expired');
    return sub;
  }

  /** Adds a note for the token's user. */
  addNote(token: string, text: string): Note {
    const note = { id: String(this.#notes.size + 1), text, author: this.whoAmI(token) };
    this.#notes.set(note.id, note);
    return note;
  }

  /** A note by id. */
  getNote(token: string, id: string): Note {
    this.whoAmI(token);
    const note = this.#notes.get(id);
    if (!note) throw new NotesServiceError('not-found', `No note ${id}`);
    return note;
  }

  /** Every note. */
  listNotes(token: string): Note[] {
    this.whoAmI(token);
    return [...this.#notes.values()];
  }
}
