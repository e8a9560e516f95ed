// A promise resolved at most once, from outside, that says whether it was: what one piece of work tells another it
// may go on (workspace-agent-views.ts `toldAhead`).

export interface SettledOnce {
  readonly promise: Promise<void>;
  readonly done: boolean;
  resolve(): void;
}

/** A new one; `done`: resolved already. */
export function settledOnce(done = false): SettledOnce {
  let settle: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    settle = resolve;
  });
  let resolved = false;
  const once: SettledOnce = {
    promise,
    get done() {
      return resolved;
    },
    resolve() {
      resolved = true;
      settle();
    },
  };
  if (done) once.resolve();
  return once;
}
