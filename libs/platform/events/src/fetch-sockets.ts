import { connect, Socket } from 'node:net';
import type { ISocketFactory } from 'kafkajs';

/** Kafka's API key of a Fetch request (the first two bytes after a request's length). */
const FETCH_API_KEY = 1;
const KEEP_ALIVE_MS = 60_000;
/** The error a fetch ended on purpose by a stop carries (logged as such, not as a broker failure). */
export const FETCH_ENDED_ON_STOP = 'the consumer is stopping';

/**
 * The sockets of one consumer that carry its fetches. kafkajs sends every Fetch of a broker on a
 * connection of its own, and a stop waits for the fetch under way: with a long fetch wait that is
 * seconds. Ending those sockets with an error ends the fetch at once, and the consumer then leaves
 * its group as usual (the group's other connection is untouched).
 */
export class FetchSockets {
  private readonly fetching = new Set<Socket>();

  readonly factory: ISocketFactory = ({ host, port, onConnect }) => {
    const socket = connect({ host, port }, onConnect);
    socket.setKeepAlive(true, KEEP_ALIVE_MS);
    // The first request a connection carries tells what it is for.
    const write = socket.write;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      socket.write = write;
      if (Buffer.isBuffer(chunk) && chunk.length >= 6 && chunk.readInt16BE(4) === FETCH_API_KEY) {
        this.fetching.add(socket);
        socket.once('close', () => this.fetching.delete(socket));
      }
      return (write as (...args: unknown[]) => boolean).call(socket, chunk, ...rest);
    }) as typeof socket.write;
    return socket;
  };

  /** Ends the fetches under way (call once the consumer is told to stop, so it does not fetch again). */
  endFetches(): void {
    for (const socket of this.fetching) socket.destroy(new Error(FETCH_ENDED_ON_STOP));
  }
}
