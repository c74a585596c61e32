import { field, z } from '@connector-sdk/core';

/** The JSON-valued `options` configuration field. */
const Options = z.object({
  /** The project used when a call names none. */
  defaultProject: z
    .string()
    .regex(/^[A-Z][A-Z0-9]*$/)
    .optional(),
});

/**
 * What the user fills in for a tracker: the connector reads it (`config` in connector.ts) and the platform's
 * form shows it (connector metadata in platform-operations.ts), from this one declaration.
 */
export const trackerConfig = {
  url: field.url(),
  username: field.string(),
  password: field.secret(),
  options: field.json(Options).optional(),
};
