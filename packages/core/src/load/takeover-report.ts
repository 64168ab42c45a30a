/**
 * What a take reports: the lock it took from another holder (`lock.taken`), and a trade it
 * recovered (`trade.recovered`), whose journal then forgets this participant.
 */
import type { DriverContext } from '../context/context.js';
import { describeError } from '../ports/errors.js';
import { forgetParticipant } from '../trade/journal.js';
import type { Acquired } from './load-attempt.js';

export function reportTakeover(
  context: DriverContext,
  key: string,
  loadId: number,
  acquired: Acquired,
): void {
  if (acquired.from && acquired.reason !== 'own') {
    const { reason, from } = acquired;
    context.emit({ type: 'lock.taken', key, loadId, reason, from });
  }
  if (acquired.recovered) {
    const { trade } = acquired.recovered;
    const outcome = acquired.recovered.outcome === 'committed' ? 'committed' : 'aborted';
    context.emit({ type: 'trade.recovered', key, trade, outcome });
    // This record no longer carries the marker: its journal keeps only what others need.
    context.background.track(
      forgetParticipant(context, trade, key).catch((error) => {
        context.logger.warn(
          `could not clear ${key} from the journal of trade ${trade}: ${describeError(error)}`,
        );
      }),
    );
  }
}
