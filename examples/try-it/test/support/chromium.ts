/** Debian's Chromium for the page's end-to-end tests: the launcher the workspace's tests share. */
import { type Browser, launchChromium as launch } from '@datadriver/backends/chromium';

export type { Browser };

/** Chromium with a fresh profile (a `try-it-chromium-` folder), removed again on close. */
export function launchChromium(): Promise<Browser> {
  return launch({ name: 'try-it' });
}
