/**
 * The API key (401 without a valid one): the X-Api-Key header, refused when repeated rather than
 * guessed at. A foreign API's clients may send it as the `apikey` query parameter (Open-Meteo's SDK
 * does): it is taken out before the parameters are checked, and no access line shows it
 * (access-log.ts).
 */
import { errors } from "../api/api-error.ts";
import type { KeyChecker } from "./auth.ts";
import type { Layer } from "./exchange.ts";

export function authenticate(keys: Pick<KeyChecker, "isValid">): Layer {
  return (x, next) => {
    const header = x.req.headers["x-api-key"];
    let key = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
    if (x.foreign !== undefined && x.query.has("apikey")) {
      const queryKey = x.query.getAll("apikey");
      x.query.delete("apikey");
      if (key === undefined && queryKey.length === 1) key = queryKey[0];
    }
    if (!keys.isValid(key)) throw errors.unauthorized();
    x.key = key;
    return next(x);
  };
}
