/**
 * Runs reloads one at a time: a change that comes while one runs joins the next, which starts when it ends, so
 * every caller's promise settles with a reload that saw its change.
 *
 * @internal
 */
export class ReloadQueue<T> {
  readonly #run: (changed: readonly string[]) => Promise<T>;
  #running: Promise<unknown> = Promise.resolve();
  #next: { files: Set<string>; promise: Promise<T> } | undefined;

  constructor(run: (changed: readonly string[]) => Promise<T>) {
    this.#run = run;
  }

  /** Asks for a reload that sees `changed`. */
  push(changed: readonly string[]): Promise<T> {
    if (this.#next !== undefined) {
      for (const file of changed) this.#next.files.add(file);
      return this.#next.promise;
    }
    const files = new Set(changed);
    const promise = this.#running.then(() => {
      this.#next = undefined;
      return this.#run([...files]);
    });
    this.#next = { files, promise };
    this.#running = promise.catch(() => undefined);
    return promise;
  }
}
