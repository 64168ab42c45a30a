// @ts-check
/**
 * The handoff's messages as links between lanes: each request received is paired with the
 * request its sender sent last, each reply received with the reply sent last to it. A message
 * that never arrived (its holder crashed) has no link.
 */

/** @typedef {import('./types.js').TimelineEntry} TimelineEntry */
/** @typedef {{ server: string, t: number }} End */
/** @typedef {{ kind: 'request' | 'reply', from: End, to: End }} Link */

const PAIRS = /** @type {const} */ ([
  { kind: 'request', sent: 'handoff.request.sent', received: 'handoff.request.received' },
  { kind: 'reply', sent: 'handoff.reply.sent', received: 'handoff.reply.received' },
]);

/** The last message sent from another server before this one arrived. */
function senderOf(/** @type {TimelineEntry} */ received, /** @type {TimelineEntry[]} */ sent) {
  const candidates = sent.filter(
    (entry) => entry.server !== received.server && entry.t <= received.t,
  );
  return candidates.at(-1);
}

/** @param {readonly TimelineEntry[]} entries @returns {Link[]} */
export function messageLinks(entries) {
  /** @type {Link[]} */
  const links = [];
  for (const pair of PAIRS) {
    const sent = entries.filter((entry) => entry.type === pair.sent);
    for (const received of entries.filter((entry) => entry.type === pair.received)) {
      const from = senderOf(received, sent);
      if (!from) continue;
      sent.splice(sent.indexOf(from), 1);
      links.push({
        kind: pair.kind,
        from: { server: from.server, t: from.t },
        to: { server: received.server, t: received.t },
      });
    }
  }
  return links;
}
