import type { PollSource } from '../src/index.js';

/** An item as the simulated end system lists it: its id and its update stamp (epoch ms). */
export interface ListedItem {
  readonly id: string;
  readonly updated: number;
}

/** How the simulated end system pages: each kind of `PollSource`. */
export type ListKind = 'all' | 'offset' | 'page' | 'cursor';
export const LIST_KINDS: readonly ListKind[] = ['all', 'offset', 'page', 'cursor'];

/** One change made in the end system: the stamp it got, and the real time it happened at. */
export interface ListChange {
  readonly id: string;
  readonly updated: number;
  readonly at: number;
}

interface Row {
  readonly id: string;
  readonly updated: number;
  /** When it was last touched: the order of rows with one stamp, as an end system sorting by time alone. */
  readonly touched: number;
}

/**
 * An end system that lists records "updated at or after T", oldest first, and stamps updates with a coarse
 * clock (whole seconds by default): records of one second come in the order they were touched, not by id.
 */
export class UpdatedSinceList {
  /** The real time, epoch ms; tests move it with `advance`. */
  now: number;
  /** Every create and update, in order. */
  readonly changes: ListChange[] = [];
  /** How many listing calls the sources made. */
  calls = 0;
  /** Runs before every listing call: a test changes records here to change the list under a walk. */
  beforeCall: (() => void) | undefined;
  readonly #rows = new Map<string, Row>();
  readonly #granularityMs: number;
  readonly #ties: 1 | -1;
  #touches = 0;
  #created = 0;

  /**
   * @param options - the real time to start at; the precision of update stamps (1 s); how records of one
   *   stamp are ordered: oldest touched first, or newest first (a new record then lands before older ones)
   */
  constructor(options: {
    readonly now: number;
    readonly granularityMs?: number;
    readonly ties?: 'oldest-first' | 'newest-first';
  }) {
    this.now = options.now;
    this.#granularityMs = options.granularityMs ?? 1_000;
    this.#ties = options.ties === 'newest-first' ? -1 : 1;
  }

  advance(ms: number): void {
    this.now += ms;
  }

  /** Creates a record stamped now; answers its id (`r1`, `r2`, …, so that `r10` sorts before `r9`). */
  create(): string {
    const id = `r${++this.#created}`;
    this.#touch(id);
    return id;
  }

  /** Updates a record: it is stamped now and moves to the end of the list. */
  update(id: string): void {
    if (!this.#rows.has(id)) throw new Error(`No record ${id}`);
    this.#touch(id);
  }

  /** The ids of the records, oldest created first. */
  ids(): string[] {
    return [...this.#rows.keys()].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
  }

  /** The records updated at or after `since`, oldest update first, as the end system answers them now. */
  list(since: number): ListedItem[] {
    this.calls++;
    this.beforeCall?.();
    return [...this.#rows.values()]
      .filter((row) => row.updated >= since)
      .sort((a, b) => a.updated - b.updated || (a.touched - b.touched) * this.#ties)
      .map(({ id, updated }) => ({ id, updated }));
  }

  /**
   * The list as each kind of source reads it. `pageSize` is the end system's page: `offset` answers at most that
   * many whatever limit it is asked for, and `cursor` is an offset in disguise, as many end systems' are.
   */
  source(kind: ListKind, pageSize = 3): PollSource<ListedItem> {
    switch (kind) {
      case 'all':
        // In no particular order: pollWindow orders what `all` answers.
        return { all: (since) => this.list(since).reverse() };
      case 'offset':
        return {
          offset: async (since, offset, limit) =>
            this.list(since).slice(offset, offset + Math.min(limit, pageSize)),
        };
      case 'page':
        return {
          pageSize,
          page: async (since, index) =>
            this.list(since).slice(index * pageSize, (index + 1) * pageSize),
        };
      case 'cursor':
        return {
          cursor: async (since, cursor) => {
            const from = Number(cursor ?? 0);
            const items = this.list(since);
            const next = from + pageSize < items.length ? String(from + pageSize) : undefined;
            return { items: items.slice(from, from + pageSize), next };
          },
        };
    }
  }

  #touch(id: string): void {
    const updated = Math.floor(this.now / this.#granularityMs) * this.#granularityMs;
    this.#rows.set(id, { id, updated, touched: ++this.#touches });
    this.changes.push({ id, updated, at: this.now });
  }
}

/** The key accessors of a listed item. */
export const LISTED_KEYS = {
  updated: (item: ListedItem) => item.updated,
  id: (item: ListedItem) => item.id,
};
