// @ts-check
/**
 * The timeline as a table: one row per event, in time order, in its server's column. This is
 * also what a screen reader gets; the lanes above draw the same events.
 */
import { formatMs } from './format.js';

/** @typedef {import('./types.js').TimelineEntry} TimelineEntry */

export class EventLog {
  /**
   * @param {HTMLTableElement} table
   * @param {HTMLElement} scroller the box the rows scroll in: it stays where the reader put it,
   *   at the first row for a new case, so the log reads from the start in time order
   */
  constructor(table, scroller) {
    this.table = table;
    this.scroller = scroller;
    /** @type {string[]} */
    this.servers = [];
  }

  /** @param {readonly string[]} servers */
  reset(servers) {
    this.servers = [...servers];
    const head = this.table.createTHead();
    head.replaceChildren();
    const row = head.insertRow();
    for (const title of ['Time', ...servers.map((server) => `Server ${server}`)]) {
      const cell = document.createElement('th');
      cell.scope = 'col';
      cell.textContent = title;
      row.append(cell);
    }
    this.body().replaceChildren();
    this.scroller.scrollTop = 0;
  }

  /** @param {TimelineEntry} entry */
  add(entry) {
    if (entry.tone === 'quiet') return; // beats are drawn on the lanes only
    const row = this.body().insertRow();
    row.className = 'fresh';
    row.dataset.type = entry.type;
    const time = row.insertCell();
    time.className = 'log-time';
    time.textContent = formatMs(entry.t);
    for (const server of this.servers) {
      const cell = row.insertCell();
      if (server !== entry.server) continue;
      cell.className = `log-event tone-${entry.tone}`;
      const type = document.createElement('code');
      type.className = 'log-type';
      type.textContent = entry.type;
      cell.append(entry.text, type);
    }
    setTimeout(() => row.classList.remove('fresh'), 800);
  }

  /** @returns {HTMLTableSectionElement} */
  body() {
    return this.table.tBodies[0] ?? this.table.createTBody();
  }
}
