/**
 * The HTTP bench reads wrk's report (bench/wrk.ts parseWrk): reports printed by wrk 4.1 (Debian)
 * on this project's machines, one with socket errors and refused answers.
 */
import { describe, expect, it } from "vitest";
import { parseWrk } from "../../bench/wrk.ts";

const CLEAN = `Running 3s test @ http://127.0.0.1:18999/
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     5.55ms   19.38ms 280.26ms   97.25%
    Req/Sec    20.09k     7.29k   31.13k    76.67%
  59826 requests in 3.00s, 13.69MB read
Requests/sec:  19926.26
Transfer/sec:      4.56MB
`;

const REFUSED = `Running 3s test @ http://127.0.0.1:18999/
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     8.51ms    5.36ms  43.00ms   87.08%
    Req/Sec     6.30k     2.47k    9.92k    66.67%
  18827 requests in 3.00s, 2.10MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
  Non-2xx or 3xx responses: 18827
Requests/sec:   6268.50
Transfer/sec:    716.22KB
`;

/** `wrk -t1 -c20 -d20s --latency` against this project's server while it reloaded (bench/reload.bench.ts). */
const LATENCY = `Running 20s test @ http://127.0.0.1:41387
  1 threads and 20 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    83.07ms  293.05ms   1.88s    93.74%
    Req/Sec     3.30k     1.33k    5.73k    68.83%
  Latency Distribution
     50%    5.38ms
     75%    7.77ms
     90%   72.10ms
     99%    1.64s 
  51486 requests in 20.04s, 269.57MB read
  Socket errors: connect 0, read 0, write 0, timeout 20
Requests/sec:   2568.72
Transfer/sec:     13.45MB
`;

describe("parseWrk", () => {
  it("reads the latency distribution when wrk printed it", () => {
    expect(parseWrk(LATENCY)).toMatchObject({ requests: 51486, socketErrors: 20, latency: { p50Ms: 5.38, p99Ms: 1640, maxMs: 1880 } });
    expect(parseWrk(CLEAN).latency).toBeUndefined();
  });

  it("reads the requests, the time and the rate", () => {
    expect(parseWrk(CLEAN)).toEqual({ requests: 59826, seconds: 3, reqPerSec: 19942, non2xx: 0, socketErrors: 0 });
  });

  it("reads refused answers and socket errors", () => {
    expect(parseWrk(REFUSED)).toMatchObject({ requests: 18827, non2xx: 18827, socketErrors: 5 });
  });

  it("refuses a report without its totals", () => {
    expect(() => parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n")).toThrow(/N requests in T/);
  });
});
