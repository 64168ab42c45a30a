// @ts-check
// The stream's types, shared with the server (checked by `tsc -p tsconfig.page.json`).

/** @typedef {import('../src/stream.js').StreamMessage} StreamMessage */
/** @typedef {import('../src/stream.js').TimelineEntry} TimelineEntry */
/** @typedef {import('../src/stream.js').CaseInfo} CaseInfo */
/** @typedef {import('../src/stream.js').Outcome} Outcome */

export {};
