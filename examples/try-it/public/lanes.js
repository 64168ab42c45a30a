// @ts-check
/**
 * One lane per server: a mark for each event at its time, the player's wait as a bar, and a
 * crashed server's silence shaded. The scale grows with the story, in round steps.
 */
import { formatMs } from './format.js';
import { messageLinks } from './message-links.js';

/** @typedef {import('./types.js').TimelineEntry} TimelineEntry */

const SCALES_MS = [500, 1000, 2000, 5000, 10_000, 20_000, 30_000, 60_000, 120_000];
/** Marks closer than this (percent of the lane) stack into rows. */
const MIN_GAP_PERCENT = 1.6;
/** Where each row of marks sits (px from the lane's top): on the line first, then above, below. */
const ROW_TOPS = [27, 13, 41];
/** A lane's height with its border, and where its line runs (px); as in style.css. */
const LANE_PX = 65;
const LINE_PX = 32;
const SVG = 'http://www.w3.org/2000/svg';

/** An axis label: "0", "250 ms", "5 s". */
function axisLabel(/** @type {number} */ ms) {
  if (ms === 0) return '0';
  return ms < 1000 ? `${ms} ms` : `${ms / 1000} s`;
}

/** The round scale that fits `ms`. */
function scaleFor(/** @type {number} */ ms) {
  return SCALES_MS.find((scale) => scale >= ms * 1.02) ?? Math.ceil(ms / 60_000) * 60_000;
}

/**
 * @param {string} tag
 * @param {string} className
 * @param {string} [text]
 */
function element(tag, className, text) {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** Spans of a player's load on one server: from the join to loaded or failed (or now). */
function loadSpans(/** @type {TimelineEntry[]} */ entries, /** @type {number} */ now) {
  /** @type {{ from: number, to: number, tone: string }[]} */
  const spans = [];
  /** @type {number | undefined} */
  let started;
  for (const entry of entries) {
    if (entry.type === 'load.started') started = entry.t;
    if (started !== undefined && (entry.type === 'load.loaded' || entry.type === 'load.failed')) {
      spans.push({ from: started, to: entry.t, tone: entry.tone });
      started = undefined;
    }
  }
  if (started !== undefined) spans.push({ from: started, to: now, tone: 'wait' });
  return spans;
}

export class Lanes {
  /** @param {HTMLElement} root */
  constructor(root) {
    this.root = root;
    /** @type {string[]} */
    this.servers = [];
    /** @type {TimelineEntry[]} */
    this.entries = [];
    this.now = 0;
    this.pending = false;
  }

  /** @param {readonly string[]} servers */
  reset(servers) {
    this.servers = [...servers];
    this.entries = [];
    this.now = 0;
    this.render();
  }

  /** @param {TimelineEntry} entry */
  add(entry) {
    this.entries.push(entry);
    this.now = Math.max(this.now, entry.t);
    this.schedule();
  }

  /** @param {number} t */
  setNow(t) {
    this.now = Math.max(this.now, t);
    this.schedule();
  }

  /** Draws at most once a frame, however fast entries arrive. */
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.render();
    });
  }

  render() {
    const scale = scaleFor(Math.max(this.now, 1));
    /** @param {number} t */
    const at = (t) => `${Math.min(100, (t / scale) * 100)}%`;
    const lanes = this.servers.map((server) => this.lane(server, scale, at));
    this.root.replaceChildren(...lanes, this.axis(scale, at), this.links(at));
  }

  /**
   * The messages between servers, as arrows from lane to lane.
   * @param {(t: number) => string} at
   */
  links(at) {
    const overlay = document.createElementNS(SVG, 'svg');
    overlay.classList.add('lane-links');
    overlay.style.height = `${this.servers.length * LANE_PX}px`;
    overlay.innerHTML =
      '<defs><marker id="arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="7" markerHeight="7" orient="auto"><path d="M0 0 8 4 0 8z" /></marker></defs>';
    /** @param {string} server */
    const y = (server) => `${this.servers.indexOf(server) * LANE_PX + LINE_PX}`;
    for (const link of messageLinks(this.entries)) {
      const line = document.createElementNS(SVG, 'line');
      line.classList.add(`link-${link.kind}`);
      line.setAttribute('x1', at(link.from.t));
      line.setAttribute('y1', y(link.from.server));
      line.setAttribute('x2', at(link.to.t));
      line.setAttribute('y2', y(link.to.server));
      line.setAttribute('marker-end', 'url(#arrow)');
      overlay.append(line);
    }
    return overlay;
  }

  /**
   * @param {string} server
   * @param {number} scale
   * @param {(t: number) => string} at
   */
  lane(server, scale, at) {
    const entries = this.entries.filter((entry) => entry.server === server);
    const lane = element('div', 'lane');
    lane.append(element('div', 'lane-label', `Server ${server}`));
    const track = element('div', 'lane-track');
    const crash = entries.find((entry) => entry.type === 'server.crashed');
    if (crash) {
      const silence = element('div', 'lane-silence');
      silence.style.left = at(crash.t);
      silence.style.right = '0';
      track.append(silence);
    }
    for (const span of loadSpans(entries, this.now)) {
      const bar = element('div', `lane-span tone-${span.tone}`);
      bar.style.left = at(span.from);
      bar.style.width = `calc(${at(span.to)} - ${at(span.from)})`;
      track.append(bar);
    }
    track.append(...this.marks(entries, scale, at));
    const cursor = element('div', 'lane-now');
    cursor.style.left = at(this.now);
    track.append(cursor);
    lane.append(track);
    return lane;
  }

  /**
   * Marks stacked into rows where they would overlap.
   * @param {TimelineEntry[]} entries
   * @param {number} scale
   * @param {(t: number) => string} at
   */
  marks(entries, scale, at) {
    const lastInRow = ROW_TOPS.map(() => Number.NEGATIVE_INFINITY);
    return entries.map((entry) => {
      if (entry.tone === 'quiet') {
        const tick = element('span', 'mark-beat');
        tick.style.left = at(entry.t);
        tick.title = `${formatMs(entry.t)} · ${entry.text}`;
        return tick;
      }
      const x = (entry.t / scale) * 100;
      let row = lastInRow.findIndex((last) => x - last >= MIN_GAP_PERCENT);
      if (row === -1) row = ROW_TOPS.length - 1;
      lastInRow[row] = x;
      const mark = element('span', `mark tone-${entry.tone}`);
      mark.style.left = at(entry.t);
      mark.style.top = `${ROW_TOPS[row]}px`;
      mark.title = `${formatMs(entry.t)} · ${entry.text}`;
      return mark;
    });
  }

  /**
   * @param {number} scale
   * @param {(t: number) => string} at
   */
  axis(scale, at) {
    const axis = element('div', 'axis');
    axis.append(element('div', 'lane-label'));
    const ticks = element('div', 'axis-ticks');
    for (let step = 0; step <= 4; step += 1) {
      const t = (scale / 4) * step;
      const tick = element('span', 'axis-tick', axisLabel(t));
      tick.style.left = at(t);
      ticks.append(tick);
    }
    axis.append(ticks);
    return axis;
  }
}
