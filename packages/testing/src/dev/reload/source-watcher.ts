import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

// Watches the files a connector loaded, by their folders rather than one by one: editors that save by writing a
// new file and renaming it over the old one (vim, many IDEs) end a watch on the file itself. Changes that come
// together (a save touches a file several times; a formatter rewrites several) make one reload, after
// `settleMs` without another change.

/**
 * Calls `onChange` once the watched files stop changing for a moment.
 *
 * @internal
 */
export class SourceWatcher {
  readonly #files = new Map<string, Set<string>>();
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #onChange: (files: readonly string[]) => void;
  readonly #settleMs: number;
  #changed = new Set<string>();
  #timer: NodeJS.Timeout | undefined;

  constructor(onChange: (files: readonly string[]) => void, settleMs = 40) {
    this.#onChange = onChange;
    this.#settleMs = settleMs;
  }

  /** The files watched now. */
  get files(): string[] {
    return [...this.#files].flatMap(([folder, names]) =>
      [...names].map((name) => `${folder}/${name}`),
    );
  }

  /** Watches one more file (its folder, once). */
  add(path: string): void {
    const folder = dirname(path);
    const names = this.#files.get(folder) ?? new Set<string>();
    this.#files.set(folder, names);
    names.add(basename(path));
    if (this.#watchers.has(folder)) return;
    const watcher = watch(folder, { persistent: false }, (_event, name) => {
      if (name !== null && names.has(name)) this.#saw(`${folder}/${name}`);
    });
    // A folder that goes away (a branch switch) is watched again when a reload loads files from it.
    watcher.on('error', () => {
      watcher.close();
      this.#watchers.delete(folder);
    });
    this.#watchers.set(folder, watcher);
  }

  #saw(path: string): void {
    this.#changed.add(path);
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      const changed = [...this.#changed];
      this.#changed = new Set();
      this.#onChange(changed);
    }, this.#settleMs);
  }

  /** Stops watching. */
  close(): void {
    clearTimeout(this.#timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
  }
}
