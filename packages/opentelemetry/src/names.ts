/**
 * Every metric, span and attribute name this package emits, in OpenTelemetry's
 * semantic-convention style: a `datadriver.` namespace, dot-separated lowercase words,
 * `error.type` for a failure's stable code, seconds for durations. No attribute ever holds
 * profile data or a lock token; the profile key only with `includeKeys`.
 */
export const METRICS = {
  /** Histogram (s): from a load's start to its profile loaded or its failure, waits included. */
  loadDuration: 'datadriver.load.duration',
  /** Histogram (s): from a release's start (the leave) to the lock cleared, retries included. */
  releaseDuration: 'datadriver.release.duration',
  /** Counter: players removed by the driver, by why. */
  kicks: 'datadriver.profile.kicks',
  /** Counter: locks taken from another server (stolen after presence stopped, stale, orphaned). */
  takeovers: 'datadriver.lock.takeovers',
  /** Counter: saves that found the lock taken; the profile was deactivated. */
  lockLosses: 'datadriver.lock.losses',
  /** Counter: saves that failed, by error code; the data is kept and retried. */
  saveFailures: 'datadriver.save.failures',
  /** Counter: releases that failed, by error code; the profile is retained and retried. */
  releaseFailures: 'datadriver.release.failures',
  /** Counter: hand-over requests this server sent to a holder. */
  requestsSent: 'datadriver.handoff.requests.sent',
  /** Counter: hand-over requests this server received, by what it did. */
  requestsReceived: 'datadriver.handoff.requests.received',
  /** Counter: presence reads of a holder, by answer. */
  presenceReads: 'datadriver.presence.reads',
  /** Counter: trades settled from their journal by a load, by outcome. */
  tradeRecoveries: 'datadriver.trade.recoveries',
  /** Gauge: profiles active on this server now. */
  activeProfiles: 'datadriver.profiles.active',
  /** Gauge: 1 while `driver.health` is `critical` (a run of store failures), else 0. */
  healthCritical: 'datadriver.health.critical',
  /** Counter: `send`s that resolved, by outcome (`queued`, or `duplicate`: received before). */
  messagesSent: 'datadriver.messages.sent',
  /** Counter: messages applied on this server, counted once their write is known committed. */
  messagesApplied: 'datadriver.messages.applied',
  /** Counter: pending messages found applied already (a holder stopped before its trim). */
  messageDuplicates: 'datadriver.messages.duplicates',
  /** Counter: tries of `onMessage` that failed (`Data.MessageFailed`); the message stays. */
  messageFailures: 'datadriver.messages.failures',
  /** Counter: inbox reads and trims that failed, by step and error code; a later pass redoes. */
  inboxFailures: 'datadriver.inbox.failures',
  /** Counter: transfers delivered to the recipient's inbox, by outcome. */
  transfersDelivered: 'datadriver.transfers.delivered',
  /** Counter: transfer deliveries that failed, by error code (`Data.DeliveryUncertain`: kept). */
  transferFailures: 'datadriver.transfers.failures',
  /** Counter: presence beats of this server, by outcome (`instrumentHandoff`). */
  beats: 'datadriver.presence.beats',
} as const;

export const SPANS = {
  /** A load, from its start to the profile loaded or the failure; its waits are span events. */
  load: 'datadriver.load',
  /** On the holder: a hand-over request, from its arrival to the reply sent. */
  release: 'datadriver.handoff.release',
} as const;

export const ATTRIBUTES = {
  driver: 'datadriver.driver.name',
  server: 'datadriver.server.id',
  /** The other server of a hand-over: the holder, or the requester. */
  peerServer: 'datadriver.peer.server.id',
  /** Only with `includeKeys: true`: a profile key is often a user id. */
  key: 'datadriver.profile.key',
  session: 'datadriver.load.session',
  outcome: 'datadriver.outcome',
  loadReason: 'datadriver.load.reason',
  waitedOn: 'datadriver.load.waited_on',
  errorType: 'error.type',
  takeoverReason: 'datadriver.takeover.reason',
  kickReason: 'datadriver.kick.reason',
  action: 'datadriver.handoff.action',
  presenceAnswer: 'datadriver.presence.answer',
  saveReason: 'datadriver.save.reason',
  tradeOutcome: 'datadriver.trade.outcome',
  /** A send's or a delivery's outcome: `queued` or `duplicate`. */
  messageOutcome: 'datadriver.message.outcome',
  /** Which inbox step failed: `read` or `trim`. */
  inboxStep: 'datadriver.inbox.step',
} as const;

/** Seconds: from a cache hit (ms) to a crash takeover (10 to 15 s) and the lock wait (15 s). */
export const DURATION_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 12, 16, 20, 30,
];
