/** What a connection's socket was asked to write, call by call. */
import type { Redis } from 'ioredis';

type Socket = Redis['stream'] & {
  _write: (...args: unknown[]) => void;
  _writev: (chunks: unknown[], callback: () => void) => void;
};

/** Each write `client`'s socket makes from now on: how many chunks (commands) it carried. */
export function recordWrites(client: Redis): number[] {
  const writes: number[] = [];
  const socket = client.stream as Socket;
  const write = socket._write.bind(socket);
  const writev = socket._writev.bind(socket);
  socket._write = (...args: unknown[]) => {
    writes.push(1);
    write(...args);
  };
  socket._writev = (chunks, callback) => {
    writes.push(chunks.length);
    writev(chunks, callback);
  };
  return writes;
}
