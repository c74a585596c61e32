// A later call read its session headers by names made with toLowerCase() at load, which are not
// internalized strings. V8 keys a property read by the internalized name it saw, and Node 24's Maglev compiled
// `readSession` with a check that the key is that very string: every call then failed it, and readSession was
// deoptimized and compiled again about 300 times in 140,000 calls (`--trace-deopt`, "unexpected name in keyed
// access"), which made a later call with OpenTelemetry on cost 1.6 times one without.
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { defineConnector } from '../connector/define-connector.js';
import { field } from '../connector/field.js';
import { headerKey, SDK_SESSION_HEADER_KEYS, SDK_SESSION_HEADERS } from './header-safety.js';

/** V8's own answer; natives syntax is read when the function is compiled. */
function isInternalized(): (value: string) => boolean {
  setFlagsFromString('--allow-natives-syntax');
  return new Function('value', 'return %IsInternalizedString(value)') as never;
}

describe('the header names the handler reads requests by', () => {
  it('are the lower-case names, as internalized strings', () => {
    const internalized = isInternalized();
    const made = 'X-Made-At-Run-Time'.toLowerCase();
    expect(internalized(made)).toBe(false);
    expect(headerKey('X-Made-At-Run-Time')).toBe(made);
    expect(internalized(headerKey('X-Made-At-Run-Time'))).toBe(true);
    for (const name of ['systemId', 'sdkSessionId', 'mac'] as const) {
      expect(SDK_SESSION_HEADER_KEYS[name]).toBe(SDK_SESSION_HEADERS[name].toLowerCase());
      expect(internalized(SDK_SESSION_HEADER_KEYS[name])).toBe(true);
    }
  });

  it("include the connector's session fields", () => {
    const internalized = isInternalized();
    const connector = defineConnector({
      name: 'c',
      version: '1',
      config: {},
      session: { 'X-Api-Token': field.secret(), 'X-Region': field.string() },
      initialize: () => ({ 'X-Api-Token': 't0ken-value', 'X-Region': 'eu' }),
    });
    const lowers = connector.compiled.sessionFields.map((entry) => entry.lower);
    expect(lowers).toEqual(['x-api-token', 'x-region']);
    for (const lower of lowers) expect(internalized(lower)).toBe(true);
  });
});
