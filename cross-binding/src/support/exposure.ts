/**
 * Every string in a value: an object's keys and values, an array's items. An array's indices are not text that
 * left the process: a one-character secret `0` "stood alone" in the index of an initialize answer's first entry.
 */
export function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) strings(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      strings(item, out);
    }
  }
  return out;
}

/** What one call let out of the process. */
export interface Exposure {
  readonly status: number;
  /** The body as sent and its strings, each header, each log line and its strings, one a line. */
  readonly shown: string;
}

/**
 * Makes a later call and answers everything that left the process meanwhile, as sent and as a reader decodes
 * it: a JSON-escaped form shows only once the JSON is parsed.
 *
 * @param origin - Where the connector is served.
 * @param path - The call, below the versioned base.
 * @param session - The session headers.
 * @param lines - The connector's log lines as JSON text; emptied first.
 */
export async function exposure(
  origin: string,
  path: string,
  session: Record<string, string>,
  lines: string[],
): Promise<Exposure> {
  lines.length = 0;
  const response = await fetch(`${origin}/sdk/api/1.0/${path}`, { headers: session });
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`);
  const body = await response.text();
  const texts = [body, ...strings(JSON.parse(body)), ...headers];
  for (const line of lines) texts.push(line, ...strings(JSON.parse(line)));
  return { status: response.status, shown: texts.join('\n') };
}
