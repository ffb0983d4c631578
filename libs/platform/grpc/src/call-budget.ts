import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The budget of the call being served: its absolute deadline, kept in an AsyncLocalStorage so that
 * every call made while serving it (however deep in a use case) is bounded by it without the use
 * case passing it along. The gateway opens the root budget for each HTTP request; a service's
 * server adapter opens one for each incoming call from the deadline the caller sent.
 */
interface Budget {
  /** ms since the epoch; Infinity when the caller set no deadline */
  deadline: number;
}

const current = new AsyncLocalStorage<Budget>();

/**
 * Taken off the incoming deadline for an outgoing call: the answer (or the DEADLINE_EXCEEDED) must
 * travel back before the caller gives up, so that the caller sees the callee's status rather than
 * its own timeout.
 */
export const DEADLINE_MARGIN_MS = 50;

/** The clock deadlines are compared with; replaced in tests to make a deadline pass without waiting. */
let now: () => number = () => Date.now();

export function setBudgetClock(clock: () => number): () => void {
  const before = now;
  now = clock;
  return () => {
    now = before;
  };
}

/**
 * Runs `work` with `deadline` as the budget of everything it calls. It replaces whatever budget the
 * surrounding async context holds: a server's socket callbacks may carry the context of whichever
 * call first opened the connection in this process, which says nothing about this call.
 */
export function withCallBudget<T>(deadline: Date | number | undefined, work: () => T): T {
  const ms = deadline === undefined ? Infinity : typeof deadline === 'number' ? deadline : deadline.getTime();
  return current.run({ deadline: ms }, work);
}

/** The deadline of the call being served, if any. */
export function incomingDeadline(): number | undefined {
  const deadline = current.getStore()?.deadline;
  return deadline === undefined || deadline === Infinity ? undefined : deadline;
}

/**
 * The ms the call being served has left to answer in before its caller gives up (its deadline less
 * the margin the answer needs to travel back), if it has a deadline.
 */
export function budgetLeft(): number | undefined {
  const deadline = incomingDeadline();
  return deadline === undefined ? undefined : deadline - DEADLINE_MARGIN_MS - now();
}

/** True when the call being served has a deadline and it has passed. */
export function budgetSpent(deadline: number | undefined = incomingDeadline()): boolean {
  return deadline !== undefined && deadline <= now();
}

/**
 * The deadline of an outgoing call: the one asked for (or the client's default from now), never
 * later than the incoming call's deadline less the margin.
 */
export function outgoingDeadline(asked: Date | undefined, defaultMs: number): Date {
  const own = asked ? asked.getTime() : now() + defaultMs;
  const incoming = incomingDeadline();
  return new Date(incoming === undefined ? own : Math.min(own, incoming - DEADLINE_MARGIN_MS));
}
