/**
 * Errors as answers: an ApiError thrown by any layer inside this one becomes its status, the
 * spec's error body (or a foreign API's own shape) and its headers; anything else is a generic 500
 * for the client, with the details (and stack) for the log.
 */
import type { Logger } from "../../datasets/common/log.ts";
import { ApiError, errors } from "../api/api-error.ts";
import { answerOf, type Answer, type Exchange, type Layer } from "./exchange.ts";
import { errorBody } from "./respond.ts";

export function failure(logger: Logger): Layer {
  const fail = (err: unknown, x: Exchange): Answer => {
    let e: ApiError;
    if (err instanceof ApiError) e = err;
    else {
      logger.error("unhandled error", { route: x.route, err });
      e = errors.internal();
    }
    const body = x.foreign ? x.foreign.errorBody(e.status, e.message) : errorBody(e.status, e.message);
    return answerOf(e.status, body, { ...e.headers });
  };
  return (x, next) => {
    try {
      const a = next(x);
      return a instanceof Promise ? a.catch((err: unknown) => fail(err, x)) : a;
    } catch (err) {
      return fail(err, x);
    }
  };
}
