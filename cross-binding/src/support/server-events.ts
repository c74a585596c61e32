import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

/**
 * What the HTTP servers of this process saw, read from Node's own diagnostics channels: a test waits until a
 * server has a client's connection or request in hand, instead of sleeping and hoping it has by then.
 */
export interface ServerEvents {
  /** Resolves once servers have accepted connections from all of `ports` (the clients' local ports). */
  accepted(ports: readonly number[]): Promise<void>;
  /** Resolves once servers have begun `count` requests whose target `matches` (their heads were read). */
  requested(matches: (url: string) => boolean, count?: number): Promise<void>;
  /** Stops watching. */
  stop(): void;
}

/** Watches `net.server.socket` and `http.server.request.start` from now until `stop()`. */
export function watchServers(): ServerEvents {
  const ports = new Set<number>();
  const urls: string[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  const onSocket = (message: unknown) => {
    const { remotePort } = (message as { socket: Socket }).socket;
    if (remotePort !== undefined) ports.add(remotePort);
    wake();
  };
  const onRequest = (message: unknown) => {
    urls.push((message as { request: IncomingMessage }).request.url ?? '');
    wake();
  };
  subscribe('net.server.socket', onSocket);
  subscribe('http.server.request.start', onRequest);
  const until = (done: () => boolean) =>
    new Promise<void>((resolve) => {
      const waiter = () => {
        if (!done()) return;
        waiters.delete(waiter);
        resolve();
      };
      waiters.add(waiter);
      waiter();
    });
  return {
    accepted: (clients) => until(() => clients.every((port) => ports.has(port))),
    requested: (matches, count = 1) => until(() => urls.filter(matches).length >= count),
    stop() {
      unsubscribe('net.server.socket', onSocket);
      unsubscribe('http.server.request.start', onRequest);
      waiters.clear();
    },
  };
}
