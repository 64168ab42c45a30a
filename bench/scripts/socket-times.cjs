// A preload (`node --require`) for bench/scripts/handover-inprocess.sh: records when each game
// server, the floor's holder and the bench itself read from and write to a TCP socket, on the
// monotonic clock in µs, with the first bytes of each chunk. A process's time from one read to
// its next write is its own work on that step, wake excluded: the socket read is its first act
// once woken. Node's HTTP server reads its requests without `push`, so an HTTP request (a
// WebSocket's upgrade) is not recorded; the frames after it are. Lines go to
// $DD_SOCKET_TIMES_DIR/<role>-<pid>.log 250 ms after the first one not yet written (the bench
// kills its game servers, so an exit would come too late), and at exit.
'use strict';
const { appendFileSync } = require('node:fs');
const net = require('node:net');

const script = process.argv[1] ?? '';
const role = script.includes('game-server')
  ? 'server'
  : script.includes('limit-holder')
    ? 'floor-holder'
    : script.endsWith('cli.js') && script.includes('bench')
      ? 'bench'
      : undefined;
const dir = process.env.DD_SOCKET_TIMES_DIR;
if (role !== undefined && dir) {
  const file = `${dir}/${role}-${process.pid}.log`;
  const lines = [];
  const PREFIX = 200;
  let flushQueued = false;
  const flush = () => {
    flushQueued = false;
    if (lines.length === 0) return;
    appendFileSync(file, `${lines.join('\n')}\n`);
    lines.length = 0;
  };
  const record = (socket, direction, chunk) => {
    // Never in the way of the socket's own call: a chunk it cannot read is not recorded.
    try {
      if (!chunk || !socket.remotePort) return;
      const head = typeof chunk === 'string' ? chunk.slice(0, PREFIX) : chunk.subarray(0, PREFIX);
      const text = typeof head === 'string' ? head : Buffer.from(head).toString('latin1');
      const at = process.hrtime.bigint() / 1000n;
      lines.push(`${at} ${direction} ${socket.localPort} ${chunk.length} ${JSON.stringify(text)}`);
      if (!flushQueued) setTimeout(flush, 250).unref();
      flushQueued = true;
    } catch {
      // Not recorded.
    }
  };
  const push = net.Socket.prototype.push;
  net.Socket.prototype.push = function (chunk, encoding) {
    record(this, 'R', chunk);
    return push.call(this, chunk, encoding);
  };
  const write = net.Socket.prototype.write;
  net.Socket.prototype.write = function (chunk, encoding, callback) {
    record(this, 'W', chunk);
    return write.call(this, chunk, encoding, callback);
  };
  process.on('exit', flush);
}
