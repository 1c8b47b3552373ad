/**
 * What `npm start` prints when no GEODATA_API_KEYS is set: the key generated for this run and a
 * request to try. Written once to the terminal of whoever started the server (stderr), not as a
 * log line, so that it never reaches a log collector that reads the JSON lines.
 */

/** The address to show: a wildcard bind is reached as localhost. */
export function shownBaseUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  return `http://${shown}:${port}`;
}

export function generatedKeyBanner(key: string, baseUrl: string): string {
  return (
    `\nNo GEODATA_API_KEYS set: generated a key for this run only:\n\n  ${key}\n\n` +
    `Try:\n  curl -s -H 'X-Api-Key: ${key}' '${baseUrl}/geocode/search/2/json?q=Berlin&limit=1'\n\n`
  );
}
