// The connector's directory: the users the platform looks up (exact match on email, user name or display name)
// and the values of lookup fields, declared as they are or listed by the end system.
import { NotFoundError } from '../../errors/errors.js';
import { asRequest, parseItem, resolve } from './endpoint.js';
import { listAll } from './entity-list.js';
import type { ListSpec, RestCall } from '../declaration/request-spec.js';
import { readFields } from '../mapping/field-mapping.js';
import { pathSteps, readPath } from '../mapping/field-path.js';
import type { LookupSpec, Users } from '../declaration/part-spec.js';

/** The platform's user lookup: exactly one of the three (the catalog checks it). */
export interface UserQuery {
  readonly email?: string | undefined;
  readonly username?: string | undefined;
  readonly displayName?: string | undefined;
}

/**
 * The users that match the platform's lookup exactly.
 *
 * @internal
 */
export async function findUsers<S>(users: Users<S>, call: RestCall<S>, query: UserQuery) {
  const [by, value] = (['email', 'username', 'displayName'] as const)
    .map((name) => [name, query[name]] as const)
    .find(([, given]) => given !== undefined) ?? ['username', undefined];
  const list: ListSpec<S> = asRequest(users.spec.list);
  const param = users.spec.by?.[by];
  // The lookup's parameter over the list's own query, whatever form that takes.
  const searched: ListSpec<S> =
    param === undefined || value === undefined
      ? list
      : {
          ...list,
          query: (inner) => ({
            ...(list.query === undefined ? {} : resolve(list.query, inner)),
            [param]: value,
          }),
        };
  const found = (await listAll(call, searched)).map((item) =>
    readFields(users.fields, parseItem(users.schema, item, 'user')),
  );
  // End systems search loosely (prefixes, case): the platform wants the exact match only, its ids as text.
  return found
    .filter((user) => value === undefined || user[by] === value)
    .map(({ id, username, ...rest }) => ({ id: String(id), username: String(username), ...rest }));
}

/**
 * A lookup field's values.
 *
 * @internal
 */
export async function lookupValues<S>(
  lookups: Readonly<Record<string, LookupSpec<S>>>,
  call: RestCall<S>,
  fieldId: string,
) {
  const lookup = Object.hasOwn(lookups, fieldId) ? lookups[fieldId] : undefined;
  if (lookup === undefined)
    throw new NotFoundError(`This connector has no lookup field '${fieldId}'`);
  if (Array.isArray(lookup))
    return [...(lookup as LookupSpec<S> & unknown[])] as { id: string | number; value: string }[];
  const listed = lookup as Exclude<LookupSpec<S>, readonly unknown[]>;
  return (await listAll(call, listed)).map((item) => ({
    id: String(readPath(item, pathSteps(listed.map.id))),
    value: String(readPath(item, pathSteps(listed.map.value))),
  }));
}
