/** JSON over HTTP for the Langfuse and LangSmith clients: bounded in time, never throws. */
import { createHash } from "node:crypto";

export interface HttpResult {
  ok: boolean;
  status: number | null;
  body: unknown;
  error: string | null;
}

export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  opts: { method?: string; timeoutMs?: number } = {},
): Promise<HttpResult> {
  try {
    const res = await fetch(url, {
      method: opts.method ?? "POST",
      headers: { "content-type": "application/json", ...headers },
      body: opts.method === "GET" ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === "" ? null : (JSON.parse(text) as unknown);
    } catch {
      /* not JSON */
    }
    return {
      ok: res.ok,
      status: res.status,
      body: parsed,
      error: res.ok ? null : `HTTP ${res.status} from ${new URL(url).pathname}`,
    };
  } catch (e) {
    const cause = e instanceof Error && e.cause instanceof Error ? `: ${e.cause.message}` : "";
    return {
      ok: false,
      status: null,
      body: null,
      error: `${e instanceof Error ? e.message : String(e)}${cause}`,
    };
  }
}

/** A UUID (version 5 layout) derived from the parts: stable ids make a re-export an update. */
export function stableUuid(...parts: string[]): string {
  const h = createHash("sha256").update(parts.join("\u0000")).digest("hex");
  const variant = ((parseInt(h[16] ?? "0", 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
