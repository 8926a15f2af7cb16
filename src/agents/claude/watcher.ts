/**
 * A light look at the stream while it runs: just enough for the driver to know
 * the session id and the final result of a turn. The full evidence comes later
 * from the stored file (src/evidence).
 */
export interface WatchState {
  lines: number;
  sessionId: string | null;
  hasResult: boolean;
  resultText: string | null;
  resultIsError: boolean | null;
  lastAssistantText: string | null;
}

function rec(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : null;
}

export class StreamWatcher {
  readonly state: WatchState = {
    lines: 0,
    sessionId: null,
    hasResult: false,
    resultText: null,
    resultIsError: null,
    lastAssistantText: null,
  };
  private lastAssistantId: string | null = null;

  push(line: string): void {
    if (line.trim() === "") return;
    this.state.lines += 1;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    const ev = rec(parsed);
    if (!ev) return;
    if (this.state.sessionId === null && typeof ev.session_id === "string")
      this.state.sessionId = ev.session_id;
    if (ev.type === "result") {
      this.state.hasResult = true;
      this.state.resultText = typeof ev.result === "string" ? ev.result : null;
      this.state.resultIsError = ev.is_error === true;
      if (typeof ev.session_id === "string") this.state.sessionId = ev.session_id;
    } else if (ev.type === "assistant") {
      const msg = rec(ev.message);
      const id = msg && typeof msg.id === "string" ? msg.id : null;
      const content = msg && Array.isArray(msg.content) ? msg.content : [];
      const texts = content
        .map((b) => rec(b))
        .filter(
          (b): b is Record<string, unknown> =>
            b !== null && b.type === "text" && typeof b.text === "string",
        )
        .map((b) => String(b.text));
      if (texts.length === 0) return;
      const text = texts.join("\n");
      this.state.lastAssistantText =
        id !== null && id === this.lastAssistantId && this.state.lastAssistantText
          ? `${this.state.lastAssistantText}\n${text}`
          : text;
      this.lastAssistantId = id;
    }
  }
}
