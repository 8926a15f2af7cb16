/**
 * The timing of model requests as they pass through a byte pipe between the agent and its
 * endpoint (the sandbox relay, or the loopback tap of `local`). Nothing is parsed: on each
 * connection a request begins with the agent's first bytes after the endpoint's last answer
 * (none yet, or bytes back since), and is answered by the endpoint's first byte after it. That
 * holds for any HTTP/1.x client, and says what the issue needs to know: whether the agent was
 * left waiting on the model, and for how long (docs/statistics.md §8).
 */
import type { ModelRequests } from "../core/sandbox.js";

export interface RequestLog {
  /** bytes from the agent on connection `conn` */
  fromAgent(conn: number): void;
  /** bytes from the endpoint on connection `conn` */
  fromEndpoint(conn: number): void;
  /** connection `conn` closed (its unanswered request waits no longer) */
  closed(conn: number): void;
  /** what was seen so far, the waiting of an open request counted up to now */
  snapshot(): ModelRequests;
}

interface Request {
  start: number;
  firstByte: number | null;
  /** when its connection closed before an answer */
  closed: number | null;
}

export function createRequestLog(
  via: ModelRequests["via"],
  clock: () => number = () => performance.now(),
): RequestLog {
  const current = new Map<number, Request>();
  let requests = 0;
  let answered = 0;
  let last: Request | null = null;
  return {
    fromAgent(conn) {
      const cur = current.get(conn);
      if (cur !== undefined && cur.firstByte === null) return; // more of the same request
      const r: Request = { start: clock(), firstByte: null, closed: null };
      current.set(conn, r);
      requests++;
      last = r;
    },
    fromEndpoint(conn) {
      const cur = current.get(conn);
      if (cur === undefined || cur.firstByte !== null) return;
      cur.firstByte = clock();
      answered++;
    },
    closed(conn) {
      const cur = current.get(conn);
      if (cur !== undefined && cur.firstByte === null) cur.closed = clock();
      current.delete(conn);
    },
    snapshot() {
      const l = last;
      const now = clock();
      return {
        via,
        requests,
        answered,
        last:
          l === null
            ? null
            : {
                waited_ms: Math.round((l.firstByte ?? l.closed ?? now) - l.start),
                answered: l.firstByte !== null,
              },
      };
    },
  };
}
