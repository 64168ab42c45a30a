/**
 * `instrumentHandoff`: the server's presence beat (`handoff.on`) as a counter by outcome, so a
 * dashboard sees a server whose beats fail before its locks are taken.
 */
import type { EventListener } from '@datadriver/core';
import { metrics } from '@opentelemetry/api';
import type { InstrumentOptions } from './instrument-driver.js';
import { METRICS } from './names.js';
import { SCOPE, VERSION } from './scope.js';

export function instrumentHandoff(
  handoff: { on(listener: EventListener): () => void },
  options: Pick<InstrumentOptions, 'meterProvider'> = {},
): () => void {
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE, VERSION);
  const beats = meter.createCounter(METRICS.beats, {
    description: 'Presence beats of this server, by outcome',
    unit: '{beat}',
  });
  return handoff.on((event) => {
    if (event.type === 'presence.beat') beats.add(1, { 'datadriver.outcome': 'ok' });
    if (event.type === 'presence.beat-failed') {
      beats.add(1, { 'datadriver.outcome': 'failed', 'error.type': event.error.code });
    }
  });
}
