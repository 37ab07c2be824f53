/**
 * A TCP relay to a local port, for tests that disturb the edge's broker link the ways a network does:
 * `cut` (sockets destroyed, new connections refused, as a pulled cable) and `restore`; `freeze` (every
 * connection, open or new, holds its bytes in both directions while its sockets stay open: a half-open
 * link, as behind a dead access point or a frozen NAT) and `thaw` (the held bytes go on, in order).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  port: number;
  cut(): void;
  restore(): Promise<void>;
  freeze(): void;
  thaw(): void;
  close(): void;
}

/** One direction of a relayed connection: written through, or held while the relay is frozen. */
class HeldPipe {
  readonly #held: Buffer[] = [];
  constructor(
    readonly to: Socket,
    readonly frozen: () => boolean,
  ) {}
  write(chunk: Buffer): void {
    if (this.frozen()) this.#held.push(chunk);
    else this.to.write(chunk);
  }
  flush(): void {
    for (const chunk of this.#held.splice(0)) this.to.write(chunk);
  }
}

export async function relayTo(port: number): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const pipes = new Set<HeldPipe>();
  let frozen = false;
  const listen = (server: Server, at: number) =>
    new Promise<number>((resolve) =>
      server.listen(at, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
  const make = () =>
    createServer((client) => {
      const upstream = connect(port, '127.0.0.1');
      const up = new HeldPipe(upstream, () => frozen);
      const down = new HeldPipe(client, () => frozen);
      pipes.add(up).add(down);
      client.on('data', (chunk: Buffer) => up.write(chunk));
      upstream.on('data', (chunk: Buffer) => down.write(chunk));
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => {
          sockets.delete(s);
          pipes.delete(up);
          pipes.delete(down);
          client.destroy();
          upstream.destroy();
        });
        s.on('error', () => {});
      }
    });
  let server = make();
  const relayPort = await listen(server, 0);
  const destroyAll = () => {
    server.close();
    for (const s of sockets) s.destroy();
  };
  return {
    port: relayPort,
    cut: destroyAll,
    restore: async () => {
      server = make();
      await listen(server, relayPort);
    },
    freeze: () => {
      frozen = true;
    },
    thaw: () => {
      frozen = false;
      for (const p of pipes) p.flush();
    },
    close: destroyAll,
  };
}
