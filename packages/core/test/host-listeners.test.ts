import { describe, expect, it } from 'vitest';
import { HostListeners } from '../src/ports.js';

describe('HostListeners', () => {
  it('tells every listener, in order, and stops telling one that unsubscribed', () => {
    const listeners = new HostListeners<{ id: string }>();
    const heard: string[] = [];
    listeners.onPlayerAdded((p) => void heard.push(`1 joined ${p.id}`));
    const off = listeners.onPlayerAdded((p) => void heard.push(`2 joined ${p.id}`));
    listeners.onPlayerRemoving((p) => void heard.push(`left ${p.id}`));
    listeners.added({ id: 'a' });
    off();
    listeners.added({ id: 'b' });
    listeners.removing({ id: 'a' });
    expect(heard).toEqual(['1 joined a', '2 joined a', '1 joined b', 'left a']);
  });

  it('a throwing listener does not keep the others from hearing; its error is thrown after', () => {
    const listeners = new HostListeners<{ id: string }>();
    const heard: string[] = [];
    listeners.onPlayerAdded(() => {
      throw new Error('game code broke');
    });
    listeners.onPlayerAdded((p) => void heard.push(p.id));
    expect(() => listeners.added({ id: 'a' })).toThrow('game code broke');
    expect(heard).toEqual(['a']);
  });

  it('the same function subscribed twice is two subscriptions, each ended on its own', () => {
    const listeners = new HostListeners<{ id: string }>();
    const heard: string[] = [];
    const listener = (p: { id: string }) => void heard.push(p.id);
    const first = listeners.onPlayerRemoving(listener);
    listeners.onPlayerRemoving(listener);
    first();
    listeners.removing({ id: 'x' });
    expect(heard).toEqual(['x']);
  });
});
