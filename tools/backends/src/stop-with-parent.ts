/**
 * A server started by a parent process with an IPC channel (the fleet, the Try it page, the
 * Colyseus runner, the tests) stops when that channel closes: the parent died, however it
 * died (SIGKILL, a crash, a Ctrl-C that reached only it), so no server outlives whoever
 * started it, holding its port. It stops as SIGTERM stops it: every profile released. Started
 * by hand, with no channel, this does nothing.
 */
export function stopWithParent(): void {
  if (!process.channel) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // Listening for 'disconnect' references the channel; the server's own work keeps it alive.
  process.channel.unref();
}
