// The naive hand-written connector: what a team writes that checks its input with zod and nothing more. The
// hand-written behaviour's entry and configuration checks (hand-written.mjs), but no session seal: initialize
// answers the session entries as they are, and a later call reads the session headers as it finds them,
// validated by their schema; no MAC, so a caller can forge any session. No redaction either (the floor has
// none). It is the price of the SDK's safety, stated in the report (initialize and the later call against it),
// not a server anyone should ship. Its initialize answers are not the floor's (no id or MAC entries): the
// behaviour check compares their status and error code only.
import { z } from 'zod';
import { fail, initialize as sealedInitialize, ok } from './hand-written.mjs';

const Session = z.object({
  authorization: z.string().min(1),
  'x-acme-url': z.url({ protocol: /^https?$/ }),
  'x-acme-user': z.string().min(1),
});
const problems = (error) =>
  error.issues.map((issue) => `${issue.path.join('.') || 'value'}: ${issue.message}`).join('; ');

/** The hand-written initialize's checks and answer, without the entries the seal adds. */
export const initialize = (body, sdkSessionId, systemId) =>
  sealedInitialize(body, sdkSessionId, systemId, { seal: false });

/**
 * A later call answered from the session headers, checked by their schema alone.
 *
 * @param {Record<string, string | string[] | undefined>} headers - lower-cased request headers
 * @param {string} id - from the path
 * @param {string | undefined} fields - from the query
 */
export function getIssue(headers, id, fields) {
  const session = Session.safeParse(headers);
  if (!session.success)
    return fail(401, 'SESSION_INVALID', `The session is invalid: ${problems(session.error)}`);
  return ok({
    id,
    summary: `Issue ${id}`,
    fields: fields ?? null,
    owner: session.data['x-acme-user'],
  });
}
