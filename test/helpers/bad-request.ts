import { expect } from "vitest";
import { ApiError } from "../../server/api/api-error.ts";
import { thrown } from "./thrown.ts";

/** The message of the 400 that `fn` throws (an ApiError); fails the test on anything else. */
export function badRequestMessage(fn: () => unknown): string {
  const err = thrown(fn);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).status).toBe(400);
  return (err as ApiError).message;
}
