// @ts-check
/**
 * The page: lists the cases, plays the chosen one by opening its event stream, and hands
 * each message to the lanes, the log, the clock and the outcome line.
 */
import { EventLog } from './event-log.js';
import { formatClock, formatMs } from './format.js';
import { Lanes } from './lanes.js';

/** @typedef {import('./types.js').CaseInfo} CaseInfo */
/** @typedef {import('./types.js').StreamMessage} StreamMessage */
/** @typedef {import('./types.js').Outcome} Outcome */

const GROUPS = /** @type {const} */ ({
  'another-server': 'On another server',
  'same-server': 'On the same server',
  messages: 'Messages',
});

/**
 * @template {HTMLElement} T
 * @param {string} id
 * @param {{ new (): T }} type
 * @returns {T}
 */
function byId(id, type) {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`#${id} is missing`);
  return node;
}

const view = {
  groups: byId('case-groups', HTMLDivElement),
  speed: byId('speed', HTMLSelectElement),
  group: byId('case-group', HTMLElement),
  title: byId('case-title', HTMLElement),
  happens: byId('case-happens', HTMLElement),
  setup: byId('case-setup', HTMLElement),
  wait: byId('case-wait', HTMLElement),
  explanation: byId('case-explanation', HTMLElement),
  play: byId('play', HTMLButtonElement),
  clock: byId('clock', HTMLElement),
  pace: byId('pace', HTMLElement),
  outcome: byId('outcome', HTMLDivElement),
  mode: byId('mode', HTMLElement),
  about: byId('about', HTMLElement),
  playback: byId('playback', HTMLElement),
  speedNote: byId('speed-note', HTMLElement),
};
const lanes = new Lanes(byId('lanes', HTMLDivElement));
const log = new EventLog(byId('log', HTMLTableElement), byId('log-box', HTMLElement));

/** @typedef {{ mode: string, about: string, clock: 'virtual' | 'wall' }} Backend */

/** @type {EventSource | undefined} */
let source;
/** @type {Backend} What the cases run on, as `/api/cases` says. */
let backend = { mode: 'in-memory', about: '', clock: 'virtual' };
/** @type {CaseInfo | undefined} */
let current;
/** While a case plays, neither Play nor another case starts a second run. */
let running = false;

/** @param {boolean} on */
function setRunning(on) {
  running = on;
  view.play.disabled = on;
  for (const button of view.groups.querySelectorAll('button.case')) {
    if (button instanceof HTMLButtonElement) button.disabled = on;
  }
}

/** `?speed=` preselects a playback speed; tests use it to play fast. */
function initSpeed() {
  const wanted = new URLSearchParams(location.search).get('speed');
  if (!wanted) return;
  if (![...view.speed.options].some((option) => option.value === wanted)) {
    const label = wanted === 'instant' ? 'Instant' : `${wanted}×`;
    view.speed.add(new Option(`${label} (from the address)`, wanted));
  }
  view.speed.value = wanted;
}

/** @param {readonly CaseInfo[]} cases */
function buildNav(cases) {
  for (const [group, heading] of Object.entries(GROUPS)) {
    const section = document.createElement('section');
    const title = document.createElement('h2');
    title.textContent = heading;
    const list = document.createElement('ul');
    for (const info of cases.filter((item) => item.group === group)) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'case';
      button.dataset.case = info.id;
      const name = document.createElement('span');
      name.className = 'case-name';
      name.textContent = info.title;
      const wait = document.createElement('span');
      wait.className = 'case-wait';
      wait.textContent = info.shortWait ?? info.seedWait;
      button.append(name, wait);
      button.addEventListener('click', () => {
        if (!running) play(info);
      });
      const item = document.createElement('li');
      item.append(button);
      list.append(item);
    }
    section.append(title, list);
    view.groups.append(section);
  }
}

/** @param {CaseInfo} info */
function show(info) {
  current = info;
  for (const button of view.groups.querySelectorAll('button.case')) {
    if (!(button instanceof HTMLButtonElement)) continue;
    if (button.dataset.case === info.id) button.setAttribute('aria-current', 'true');
    else button.removeAttribute('aria-current');
  }
  view.group.textContent = GROUPS[info.group];
  view.title.textContent = info.title;
  view.happens.textContent = info.happens;
  view.setup.textContent = info.setup;
  view.wait.textContent = info.seedWait;
  view.explanation.textContent = info.explanation;
  view.play.disabled = running;
  view.play.textContent = 'Play';
  view.pace.textContent = info.pace === 1 ? '' : `plays ${info.pace}× faster`;
  view.clock.textContent = formatClock(0);
  lanes.reset(info.servers);
  log.reset(info.servers);
  setOutcome('idle', 'Press Play to run this case.');
}

/**
 * @param {'idle' | 'running' | 'done' | 'error'} state
 * @param {string} text
 * @param {string} [note]
 */
function setOutcome(state, text, note) {
  view.outcome.dataset.state = state;
  const main = document.createElement('strong');
  main.textContent = text;
  view.outcome.replaceChildren(main);
  if (note) {
    const small = document.createElement('span');
    small.className = 'outcome-note';
    small.textContent = note;
    view.outcome.append(small);
  }
}

/** @param {number | null} rate */
function paceText(rate) {
  if (rate === null) return 'instant';
  return rate === 1 ? 'real time' : `${rate}× faster`;
}

/**
 * @param {StreamMessage} message
 * @param {CaseInfo} info
 */
function handle(message, info) {
  switch (message.kind) {
    case 'started':
      view.pace.textContent = paceText(message.rate);
      return;
    case 'entry':
      lanes.add(message.entry);
      log.add(message.entry);
      return;
    case 'clock':
      view.clock.textContent = formatClock(message.t);
      lanes.setNow(message.t);
      return;
    case 'outcome':
      view.play.textContent = 'Play again';
      view.clock.textContent = formatMs(message.t);
      lanes.setNow(message.t);
      view.outcome.dataset.kind = message.outcome.kind;
      setOutcome('done', message.outcome.text, outcomeNote(message.outcome, message.t, info));
      return;
    case 'error':
      setOutcome('error', `The case failed: ${message.text}`);
      return;
    case 'end':
      setRunning(false);
      return;
  }
}

/**
 * The line under an outcome: the rule's wait, where the measured wait starts on the case clock
 * (the clock shows the whole case, set-up included, so it reads more than the wait), the clock
 * it was measured on, and the record as the backend holds it when the runner read it back.
 * @param {Outcome} outcome
 * @param {number} endedAt the case clock at the outcome, in ms
 * @param {CaseInfo} info
 */
function outcomeNote(outcome, endedAt, info) {
  const clock = backend.clock === 'wall' ? 'the servers’ clocks' : 'the virtual clock';
  // Only the first letter is lowered: the rule's wait may name an option (lockTtlSeconds).
  const wait = info.seedWait.charAt(0).toLowerCase() + info.seedWait.slice(1);
  const from = outcome.measuredFrom === 'last-beat' ? 'the crashed holder’s last beat' : 'the join';
  const startedAt = formatMs(Math.max(0, endedAt - outcome.waitedMs));
  const parts = [
    `The rule’s wait: ${wait}.`,
    `The wait counts from ${from}, at ${startedAt} on the case clock.`,
    `Measured on ${clock}.`,
  ];
  const stored = outcome.stored;
  if (stored) {
    const flag = stored.presenceFlag === false ? ', without the presence flag' : '';
    const lock = stored.holder === null ? 'unlocked' : `locked by ${stored.holder}${flag}`;
    parts.push(`${backend.mode} holds ${stored.coins} coins, ${lock}.`);
  }
  return parts.join(' ');
}

/** @param {CaseInfo} info */
function play(info) {
  if (running) return;
  source?.close();
  show(info);
  setRunning(true);
  setOutcome('running', 'Playing…');
  const speed = encodeURIComponent(view.speed.value);
  const stream = new EventSource(`/api/cases/${info.id}/run?speed=${speed}`);
  source = stream;
  let ended = false;
  stream.onmessage = (event) => {
    /** @type {StreamMessage} */
    const message = JSON.parse(event.data);
    handle(message, info);
    if (message.kind === 'end') {
      ended = true;
      stream.close();
    }
  };
  stream.onerror = () => {
    if (ended || source !== stream) return;
    stream.close();
    setRunning(false);
    setOutcome('error', 'The connection to the demo server was lost.');
  };
}

async function main() {
  initSpeed();
  const response = await fetch('/api/cases');
  /** @type {Backend & { cases: CaseInfo[] }} */
  const { cases, ...about } = await response.json();
  backend = about;
  view.mode.textContent = backend.mode;
  view.about.textContent = backend.about;
  document.body.dataset.mode = backend.mode;
  // Real processes run in real time: there is no playback speed to choose.
  view.playback.hidden = backend.clock === 'wall';
  view.speedNote.hidden = backend.clock === 'wall';
  buildNav(cases);
  view.play.addEventListener('click', () => {
    if (current) play(current);
  });
  const first = cases[0];
  if (first) show(first);
  document.body.dataset.ready = 'true';
}

main().catch((error) => setOutcome('error', `The page could not start: ${error}`));
