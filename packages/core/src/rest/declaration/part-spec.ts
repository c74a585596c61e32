// What an entity type declares of its parts (comments, attachments, history) and a connector of its directory
// (users, lookup values): each read from the end system through declared requests and mappings, as entities are.
import type { z } from 'zod';
import type { CompiledField, FieldOf } from '../mapping/field-mapping.js';
import type { ListSpec, RequestSpec, RestCall, WriteSpec } from './request-spec.js';

/**
 * A part written to the end system: its answer is the written part (`'item'`, the default), or a function picks
 * it out of the end system's answer.
 */
export type PartWrite<TSession, TPart> = Omit<WriteSpec<TSession, TPart>, 'answer'> & {
  readonly answer?: 'item' | ((body: unknown, call: RestCall<TSession>) => unknown);
};

/**
 * An entity's comments: the comment's schema, its parts under the names the platform reads them by, where they
 * are listed and added.
 */
export interface CommentsSpec<
  TSession,
  TComment,
  F extends Readonly<Record<string, FieldOf<TComment>>>,
> {
  /**
   * The comment's parts by the names the platform reads and writes them under; `roles` says which is which.
   */
  readonly fields: F;
  /** Which of `fields` is the comment's id, text, title, author and creation date (the type's `fieldNameInfo`). */
  readonly roles: {
    readonly id: keyof F & string;
    readonly body: keyof F & string;
    readonly createdDate: keyof F & string;
    readonly createdBy?: keyof F & string;
    readonly title?: keyof F & string;
  };
  /** One entity's comments (`'issues/{id}/comments'`), oldest first. */
  readonly list: ListSpec<TSession> | string;
  /**
   * Adds a comment from the platform's text (and title), mapped by `fields`. Its `answer` picks the new comment
   * out of the end system's answer (`'item'`: the answer is the comment).
   */
  readonly add?: PartWrite<TSession, TComment> | string;
}

/** One revision of the platform's history, as a history's `revision` function gives it. */
export interface RevisionParts {
  readonly entityId: string;
  readonly revisionId: string;
  readonly updatedBy: string;
  /** When: an ISO 8601 text, a `Date` or epoch milliseconds; written in the history's declared pattern. */
  readonly at: string | number | Date;
  readonly revisionType: 'CREATE' | 'UPDATE' | 'DELETE';
  /** The changed fields by platform field id. */
  readonly fieldsChangedInRevision?: Readonly<
    Record<string, { readonly oldValue: unknown; readonly newValue: unknown }>
  >;
  /** Any other keys of the revision (`commentRevision`, `attachmentRevision`, …). */
  readonly [key: string]: unknown;
}

/** What a history's `revision` function may use: an entity's comment as the platform reads it. */
export interface RevisionTools {
  /** A comment of the end system's, as the platform reads it (the entity's `comments` mapping). */
  comment(comment: unknown): Record<string, unknown>;
}

/**
 * A history read from the end system's journal of changes: the journal is read whole for the platform's time
 * range (its own filters sent as query parameters where it has them), its entries become revisions, and the
 * revisions are filtered, ordered as the platform wants them and windowed.
 */
export interface HistorySpec<TSession, TEntry> {
  /**
   * The journal: where, how it pages, and its query. The platform's range and entity reach it through `filters`
   * (and `{id}` in its path, for one entity's history).
   */
  readonly list: ListSpec<TSession>;
  /** The query parameters the journal filters by, sent as ISO 8601 instants and ids. */
  readonly filters?: {
    readonly since?: string;
    readonly until?: string;
    readonly entityId?: string;
    readonly projectId?: string;
  };
  /** An entry as the platform's revision; `undefined` when it is not one of this history's. */
  readonly revision: (entry: TEntry, tools: RevisionTools) => RevisionParts | undefined;
  /** The Java-style pattern of revision times (and of the platform's `since` and `maxTime`). */
  readonly dateFormat: string;
  /** Revision ids are numbers: the platform orders them as numbers (`10` after `9`). */
  readonly numericRevisionIds?: boolean;
}

/**
 * An entity's attachments: where they are listed (or which key of the item holds them), uploaded, downloaded and
 * deleted, and their parts under the names the platform reads them by.
 */
export interface AttachmentsSpec<
  TSession,
  TFile,
  F extends Readonly<Record<string, FieldOf<TFile>>>,
> {
  /** The attachment as the platform reads it: its parts by name (`id`, `fileName`, `contentUri`, …). */
  readonly fields: F;
  /** Which of `fields` is the attachment's id and where its content is (a path under the API's base URL). */
  readonly roles: { readonly id: keyof F & string; readonly contentUri: keyof F & string };
  /**
   * Where an entity's attachments are: a dotted path in the entity's item (`{ inItem: 'files' }`), or a list.
   * Without it an entity read with its attachments answers none.
   */
  readonly list?: { readonly inItem: string } | ListSpec<TSession>;
  /**
   * Uploads a file as `multipart/form-data`: the file part's name, and the text part that carries the
   * platform's `fileName` where the end system wants one. The file is sent with its `Content-Length`.
   */
  readonly upload?: PartWrite<TSession, TFile> & {
    readonly file: string;
    readonly parts?: { readonly fileName?: string };
  };
  /** Deletes an attachment: `{attachmentId}` is replaced in its path. */
  readonly delete?: RequestSpec<TSession> | string;
}

/** The users the platform looks up (by email, user name or display name, exact match). */
export interface UsersSpec<TSession, TUser, F extends Readonly<Record<string, FieldOf<TUser>>>> {
  /** The user's `id`, `username`, `email` and `displayName`. */
  readonly fields: F;
  /** Where users are listed or searched. */
  readonly list: ListSpec<TSession> | string;
  /**
   * The query parameter each lookup sends (`{ email: 'email', username: 'login' }`); a lookup not named here is
   * answered by filtering the whole list. Every answer is filtered to exact matches.
   */
  readonly by?: {
    readonly email?: string;
    readonly username?: string;
    readonly displayName?: string;
  };
}

/** A field's lookup values: declared as they are, or listed by the end system with `map`. */
export type LookupSpec<TSession> =
  | readonly { readonly id: string | number; readonly value: string }[]
  | (ListSpec<TSession> & { readonly map: { readonly id: string; readonly value: string } });

/**
 * A part as `api.comments`, `api.attachments`, `api.history` and `api.users` make it, its mappings checked
 * against its schema: give it to the entity type (or `users` to `operations`). What it holds is the layer's.
 */
export interface CompiledPart<TSpec> {
  /** @internal */
  readonly schema: z.ZodType;
  /** @internal */
  readonly spec: TSpec;
  /** @internal */
  readonly fields: readonly CompiledField[];
}

/** An entity's comments, made by `api.comments(schema, spec)`. */
export type Comments<S> = CompiledPart<
  CommentsSpec<S, unknown, Readonly<Record<string, FieldOf<unknown>>>>
>;
/** An entity's attachments, made by `api.attachments(schema, spec)`. */
export type Attachments<S> = CompiledPart<
  AttachmentsSpec<S, unknown, Readonly<Record<string, FieldOf<unknown>>>>
>;
/** A history, made by `api.history(schema, spec)`. */
export type History<S> = CompiledPart<HistorySpec<S, unknown>>;
/** The users, made by `api.users(schema, spec)`. */
export type Users<S> = CompiledPart<
  UsersSpec<S, unknown, Readonly<Record<string, FieldOf<unknown>>>>
>;
