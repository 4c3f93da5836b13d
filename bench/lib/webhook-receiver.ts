// A webhook receiver on loopback for the tests, the fault suite and the bench. Every request is
// verified with the `standardwebhooks` package (code we did not write judges our signatures);
// it can answer 500 for the first N attempts, answer late, or be down (not listening) for a while.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  type: string;
  verified: boolean;
  /** Why verification failed (when it did). */
  error?: string;
  body: any;
  headers: Record<string, string>;
  answered: number;
  at: number;
  /** Wall clock of the receipt (Date.now()), to compare with the database's event time. */
  wallMs: number;
}

export interface Receiver {
  url: string;
  /** Every request, in arrival order. */
  all: Received[];
  /** Verified and acknowledged (2xx) ones: what the partner has really received. */
  accepted(): Received[];
  /** Answer 500 to the next n requests. */
  failNext(n: number): void;
  /** Stop listening (connections refused) until up(). */
  down(): Promise<void>;
  up(): Promise<void>;
  /** The secrets it verifies with (any one verifying is enough, as in a rotation). */
  secrets: string[];
  /** Resolves when `pred` holds over the accepted ones, or after timeoutMs (bounded). */
  waitFor(pred: (accepted: Received[]) => boolean, timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/** delayMs: answer each request this late (a slow partner: W2, the webhook lane test). */
export async function startReceiver(o: { secrets?: string[]; port?: number; delayMs?: number } = {}): Promise<Receiver> {
  const all: Received[] = [];
  let failing = 0;
  const secrets = o.secrets ?? [];
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      let verified = false;
      let error: string | undefined;
      for (const s of secrets) {
        try {
          new Webhook(s).verify(raw, headers);
          verified = true;
          break;
        } catch (err) {
          error = (err as Error).message;
        }
      }
      let body: any = null;
      try {
        body = JSON.parse(raw);
      } catch {
        /* recorded as null */
      }
      const answered = !verified ? 400 : failing > 0 ? 500 : 204;
      if (verified && failing > 0) failing--;
      all.push({ id: headers['webhook-id'] ?? '', type: body?.type ?? '', verified, ...(error && !verified ? { error } : {}), body, headers, answered, at: performance.now(), wallMs: Date.now() });
      res.statusCode = answered;
      if (!o.delayMs) return void res.end();
      const timer = setTimeout(() => res.end(), o.delayMs);
      res.once('close', () => clearTimeout(timer));
    });
  };
  let server = http.createServer(onRequest);
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(o.port ?? 0);
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const accepted = () => all.filter((r) => r.verified && r.answered < 300);
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    all,
    accepted,
    secrets,
    failNext: (n) => {
      failing = n;
    },
    down: close,
    async up() {
      server = http.createServer(onRequest);
      await listen(port);
    },
    async waitFor(pred, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (Date.now() < deadline) {
        if (pred(accepted())) return true;
        await new Promise((r) => setTimeout(r, 100));
      }
      return pred(accepted());
    },
    close,
  };
}
