import type { Connector } from '@connector-sdk/core';
import { atGeneration } from './reload-hooks.js';

/** A connector as a module exports it: the value and the name it is exported under. */
export interface LoadedConnector {
  readonly connector: Connector;
  readonly exportName: string;
}

function isConnector(value: unknown): value is Connector {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<Connector>;
  return (
    typeof candidate.name === 'string' &&
    typeof candidate.adapter === 'object' &&
    typeof candidate.compiled === 'object'
  );
}

/**
 * Imports the module that exports the connector, at a generation (its project's files afresh), and finds the
 * connector in it: the export named, else `default`, else the one export that is a connector.
 *
 * @param url - the module's file URL
 * @param exportName - the export to take, if the author named one
 * @param generation - counts the loads, so each one reads the project's files again
 * @returns the connector and its export's name
 * @throws TypeError naming what the module exports when no connector or several are found
 * @internal
 */
export async function importConnector(
  url: URL,
  exportName: string | undefined,
  generation: number,
): Promise<LoadedConnector> {
  const module = (await import(atGeneration(url, generation))) as Record<string, unknown>;
  if (exportName !== undefined) {
    const value = module[exportName];
    if (!isConnector(value))
      throw new TypeError(
        `${url.pathname} exports no connector as '${exportName}' (give the name defineConnector's result is exported under)`,
      );
    return { connector: value, exportName };
  }
  const found = Object.entries(module).filter(([, value]) => isConnector(value));
  const chosen =
    found.find(([name]) => name === 'default') ?? (found.length === 1 ? found[0] : undefined);
  if (chosen === undefined)
    throw new TypeError(
      found.length === 0
        ? `${url.pathname} exports no connector (export the result of defineConnector)`
        : `${url.pathname} exports several connectors (${found.map(([name]) => name).join(', ')}): name one with exportName`,
    );
  return { connector: chosen[1] as Connector, exportName: chosen[0] };
}
