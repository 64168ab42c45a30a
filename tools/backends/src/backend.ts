/** A running service that tests talk to, started by us or supplied by the environment. */
export interface Backend {
  readonly name: string;
  readonly url: string;
  /** True when the address came from an environment variable: we neither started nor own it. */
  readonly external: boolean;
  /** Stops what we started; a no-op for external backends. Safe to call twice. */
  stop(): Promise<void>;
}

export interface RedisBackend extends Backend {
  readonly port: number;
  /** Stops the server but keeps the port, so `restart()` brings it back at the same address. */
  kill(): Promise<void>;
  restart(): Promise<void>;
}

export interface DynamoLocalBackend extends Backend {
  /** `http://127.0.0.1:PORT`, ready for the AWS SDK's `endpoint` option. */
  readonly endpoint: string;
}

export interface PubSubBackend extends Backend {
  /** `127.0.0.1:PORT`, the form `PUBSUB_EMULATOR_HOST` and the client library's `apiEndpoint` use. */
  readonly endpoint: string;
}

export type Env = Readonly<Record<string, string | undefined>>;

/** Lets tests of this package pretend an environment without mutating `process.env`. */
export interface LaunchOptions {
  readonly env?: Env;
  /**
   * The caller handles SIGINT and SIGTERM itself and stops the backend when it chooses (a runner
   * that stops its game servers first, Redis last): the server then runs in its own process
   * group, out of reach of a terminal's Ctrl-C, and is killed on a signal only when this
   * process exits. Redis only.
   */
  readonly ownSignals?: boolean;
}
