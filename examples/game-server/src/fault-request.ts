/**
 * The body of `POST /faults` (a game server started with `--faults`): a subset of core's
 * `FaultSpec` that can travel as JSON.
 *
 *   { "kind": "stall", "operation": "update", "times": "forever" }
 */
import type { FaultSpec } from '@datadriver/core/testing';

export type FaultPort = 'store' | 'presence';

export interface FaultRequest {
  readonly kind: 'fail' | 'stall' | 'lose-response';
  /** Which port of the server the fault hits; `store` when unset. */
  readonly port?: FaultPort;
  /** `update` or `get` on the store, `set` or `get` on presence; every call when unset. */
  readonly operation?: string;
  /** How many calls it hits: 1 when unset, `"forever"` until released. */
  readonly times?: number | 'forever';
}

const KINDS: ReadonlySet<string> = new Set(['fail', 'stall', 'lose-response']);
const OPERATIONS: Record<FaultPort, ReadonlySet<string>> = {
  store: new Set(['update', 'get']),
  presence: new Set(['set', 'get']),
};

function field(body: object, name: string): unknown {
  return (body as Record<string, unknown>)[name];
}

/** The request in `body`, or a RangeError that says what is wrong with it. */
export function parseFaultRequest(body: unknown): Required<Pick<FaultRequest, 'port'>> & FaultSpec {
  if (typeof body !== 'object' || body === null) throw new RangeError('expected a JSON object');
  const kind = field(body, 'kind');
  if (typeof kind !== 'string' || !KINDS.has(kind)) {
    throw new RangeError('kind must be "fail", "stall" or "lose-response"');
  }
  const port = field(body, 'port') ?? 'store';
  if (port !== 'store' && port !== 'presence') {
    throw new RangeError('port must be "store" or "presence"');
  }
  const operation = field(body, 'operation');
  if (
    operation !== undefined &&
    !(typeof operation === 'string' && OPERATIONS[port].has(operation))
  ) {
    throw new RangeError(
      `operation on the ${port} must be one of ${[...OPERATIONS[port]].join(', ')}`,
    );
  }
  const times = field(body, 'times') ?? 1;
  if (times !== 'forever' && !(Number.isInteger(times) && (times as number) > 0)) {
    throw new RangeError('times must be a positive integer or "forever"');
  }
  return {
    port,
    kind: kind as FaultRequest['kind'],
    ...(operation === undefined ? {} : { operation }),
    times: times === 'forever' ? Number.POSITIVE_INFINITY : (times as number),
  };
}
