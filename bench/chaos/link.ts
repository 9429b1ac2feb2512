/** A network link in a TCP relay: latency each way, and a cut that swallows traffic as a partition does. */
import net from "node:net";

/** Bytes waiting to cross one way, in order, each not before its time. */
class Direction {
  private last = 0;
  constructor(
    private readonly to: net.Socket,
    private readonly link: Link,
  ) {}

  send(chunk: Buffer): void {
    // Order is kept: a chunk never overtakes the one before it.
    const at = Math.max(Date.now() + this.link.delayMs, this.last);
    this.last = at;
    const go = () => {
      if (this.link.isCut) this.link.whenRestored(go);
      else if (!this.to.destroyed) this.to.write(chunk);
    };
    if (at <= Date.now()) go();
    else setTimeout(go, at - Date.now());
  }
}

/**
 * Listens on `listen` and relays each connection to `target`. `delayMs` is added each way (a
 * round trip gains twice it). `cut()` holds every byte and connects nothing new, refusing nothing
 * — to both ends the link just goes silent, as when a cable is pulled — until `restore()` lets
 * what was held through, in order. A stand-in where `tc netem` is not available.
 */
export class Link {
  delayMs = 0;
  isCut = false;
  private waiting: (() => void)[] = [];
  private readonly sockets = new Set<net.Socket>();
  private server: net.Server | null = null;

  constructor(private readonly target: { host: string; port: number }) {}

  /** Starts listening; resolves with the port. */
  async listen(host = "127.0.0.1", port = 0): Promise<number> {
    const server = net.createServer((client) => this.relay(client));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, host, resolve));
    return (server.address() as net.AddressInfo).port;
  }

  cut(): void {
    this.isCut = true;
  }

  restore(): void {
    this.isCut = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const go of waiting) go();
  }

  /** Runs `go` once the link is restored. */
  whenRestored(go: () => void): void {
    this.waiting.push(go);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private relay(client: net.Socket): void {
    const connect = () => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.setNoDelay(true);
        socket.on("close", () => this.sockets.delete(socket));
        socket.on("error", () => {});
      }
      const up = new Direction(upstream, this);
      const down = new Direction(client, this);
      client.on("data", (chunk) => up.send(chunk));
      upstream.on("data", (chunk) => down.send(chunk));
      client.on("close", () => upstream.destroy());
      upstream.on("close", () => client.destroy());
      client.resume();
    };
    // A connection made while the link is cut reaches nothing until it is restored.
    client.pause();
    client.on("error", () => {});
    if (this.isCut) this.whenRestored(connect);
    else connect();
  }
}
