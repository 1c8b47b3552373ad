/** The part of autocannon's programmatic API the http bench uses (the package ships no types). */
declare module "autocannon" {
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    pipelining?: number;
    headers?: Record<string, string>;
    requests?: Array<RequestParams & { setupRequest?: (req: RequestParams) => RequestParams }>;
  }
  interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
  }
  interface Result {
    requests: Histogram;
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    statusCodeStats?: Record<string, { count: number }>;
    "1xx": number;
    "2xx": number;
    "3xx": number;
    "4xx": number;
    "5xx": number;
  }
  /** The run: awaited for its result; emits "start" once the connections' requests are built and sending begins. */
  interface Tracker extends PromiseLike<Result> {
    once(event: "start", listener: () => void): this;
  }
  function autocannon(options: Options): Tracker;
  export default autocannon;
}
