/**
 * A small TCP fault proxy (SECURITY.md 4.3: toxiproxy is not installable here): forwards a local port
 * to a target and, on command, adds latency, resets every connection, or swallows traffic.
 */
import net from 'node:net';

export type Fault =
  | { kind: 'none' }
  /** Each chunk waits this long in each direction. */
  | { kind: 'latency'; ms: number }
  /** Open connections are reset now; new ones are reset at once. */
  | { kind: 'reset' }
  /** Connections are accepted but nothing passes (a dropped connection mid-request). */
  | { kind: 'blackhole' };

export interface FaultProxy {
  readonly port: number;
  set(fault: Fault): void;
  close(): Promise<void>;
}

export async function startFaultProxy(targetHost: string, targetPort: number): Promise<FaultProxy> {
  let fault: Fault = { kind: 'none' };
  const pairs = new Set<[net.Socket, net.Socket]>();

  const pipe = (from: net.Socket, to: net.Socket) => {
    from.on('data', (chunk) => {
      if (fault.kind === 'blackhole') return;
      if (fault.kind === 'latency') {
        from.pause();
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk);
          from.resume();
        }, fault.ms);
      } else if (!to.destroyed) to.write(chunk);
    });
    from.on('end', () => to.end());
    from.on('error', () => to.destroy());
    from.on('close', () => to.destroy());
  };

  const server = net.createServer((client) => {
    if (fault.kind === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, targetHost);
    const pair: [net.Socket, net.Socket] = [client, upstream];
    pairs.add(pair);
    const forget = () => pairs.delete(pair);
    client.on('close', forget);
    upstream.on('close', forget);
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    set(next) {
      fault = next;
      if (next.kind === 'reset')
        for (const [client, upstream] of pairs) {
          client.resetAndDestroy();
          upstream.destroy();
        }
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
