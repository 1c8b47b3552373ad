/**
 * Values that are ready now or later. The request path stays synchronous when every step is
 * (server/http/app.ts says why that matters): a step that may have to wait (a DEM block read from
 * disk) returns its value directly when it has it, and a promise only when it must wait.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`, now when `value` is ready, else once it is. */
export function andThen<T, U>(value: MaybePromise<T>, next: (ready: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
