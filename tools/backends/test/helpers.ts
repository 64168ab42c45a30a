import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

/** Sends an inline PING over a raw socket; resolves with the first reply, or the socket error. */
export function rawPing(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => socket.write('PING\r\n'));
    socket.setTimeout(2000, () => socket.destroy(new Error('timeout')));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString());
    });
    socket.once('error', reject);
  });
}

/** Resolves true when a TCP connection to the port succeeds. */
export function isListening(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Live processes whose command line contains `text` (Linux /proc; zombies have none). */
export function processesMentioning(text: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(text)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

export function parsePort(url: string): number {
  return Number(new URL(url).port);
}
