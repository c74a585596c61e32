/**
 * Calls a test keeps in flight until it lets them answer, however slow the machine: an operation's handler
 * that a check needing calls in flight can count on, never answered by a timer.
 */
export function heldCalls() {
  const holding: (() => void)[] = [];
  let onHold: (() => void) | undefined;
  return {
    /** The operation's handler: stays in flight until {@link release}, then answers `{ held: true }`. */
    hold: () =>
      new Promise<{ held: true }>((resolve) => {
        holding.push(() => resolve({ held: true }));
        onHold?.();
      }),
    /** Resolves once `count` calls are in the connector's hands. */
    async held(count: number): Promise<void> {
      while (holding.length < count) await new Promise<void>((resolve) => (onHold = resolve));
    },
    /** Lets every call in flight answer. */
    release(): void {
      for (const answer of holding.splice(0)) answer();
    },
  };
}
