import { describe, expect, it } from "vitest";
import {
  createBodyMeter,
  createHttpMeter,
  usageOfEvent,
  type UsageDelta,
} from "../../../src/cost/meter.js";
import type { ApiMessage } from "../../../src/model/build-reply.js";
import { wireFor } from "../../../src/model/wire/index.js";

const REPLY: ApiMessage = {
  id: "msg_1",
  type: "message",
  role: "assistant",
  model: "claude-sonnet-4-5",
  content: [{ type: "text", text: "Hello there, this is a reply." }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: {
    input_tokens: 1200,
    output_tokens: 80,
    cache_read_input_tokens: 3000,
    cache_creation_input_tokens: 50,
  },
};

/** What each dialect can say: OpenAI and Gemini have no cache-write count (it is input there). */
const EXPECTED = {
  anthropic: { input: 1200, output: 80, cache_read: 3000, cache_write: 50 },
  other: { input: 1250, output: 80, cache_read: 3000, cache_write: 0 },
};

const PATHS = [
  ["anthropic", "/v1/messages", EXPECTED.anthropic],
  ["openai-responses", "/v1/responses", EXPECTED.other],
  ["openai-chat", "/v1/chat/completions", EXPECTED.other],
  ["gemini", "/v1beta/models/m:streamGenerateContent", EXPECTED.other],
] as const;

function sum(deltas: UsageDelta[]): Record<string, number> & { model?: string | null } {
  const t = { input: 0, output: 0, cache_read: 0, cache_write: 0 };
  for (const d of deltas) for (const k of Object.keys(t) as (keyof typeof t)[]) t[k] += d.tokens[k];
  return t;
}

/** The body split into pieces of `size` bytes (a chunk boundary anywhere, mid-character too). */
function pieces(b: Buffer, size: number): Buffer[] {
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

describe("body meter: the usage each dialect's reply reports (the scripted server's own encoding)", () => {
  for (const [api, p, want] of PATHS) {
    const wire = wireFor(p);
    if (wire === null) throw new Error(`no wire for ${p}`);
    expect(wire.api).toBe(api);
    for (const [kind, body] of [
      ["sse", wire.events(REPLY).join("")],
      ["json", JSON.stringify(wire.json(REPLY))],
    ] as const) {
      for (const size of [1, 7, 64, 1 << 20]) {
        it(`${api} ${kind}, chunks of ${size} bytes`, () => {
          const deltas: UsageDelta[] = [];
          const m = createBodyMeter((d) => deltas.push(d));
          for (const c of pieces(Buffer.from(body), size)) m.push(c);
          m.end();
          expect(sum(deltas)).toEqual(want);
          expect(m.totals().tokens).toEqual(want);
          expect(m.totals().model).toBe("claude-sonnet-4-5");
        });
      }
    }
  }

  it("SSE usage is counted as it arrives, before the body ends (a budget can stop a reply mid-stream)", () => {
    const wire = wireFor("/v1/messages");
    if (!wire) throw new Error("no wire");
    const deltas: UsageDelta[] = [];
    const m = createBodyMeter((d) => deltas.push(d));
    const events = wire.events(REPLY);
    m.push(events[0] ?? "");
    // message_start: input and cache counts, output 1 so far
    expect(sum(deltas)).toEqual({ input: 1200, output: 1, cache_read: 3000, cache_write: 50 });
  });

  it.each([
    ["an error body", '{"type":"error","error":{"type":"api_error","message":"x"}}', null],
    ["a ping event", '{"type":"ping"}', null],
    ["non-JSON", "not json", null],
    [
      "Gemini thinking counts as output",
      '{"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":5,"thoughtsTokenCount":7},"modelVersion":"gemini-2.5-pro"}',
      { model: "gemini-2.5-pro", counts: { input: 10, cache_read: 0, output: 12 } },
    ],
  ])("%s", (_name, text, want) => {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      v = text;
    }
    expect(usageOfEvent(v)).toEqual(want);
  });
});

function http(head: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), body]);
}
function chunked(body: Buffer, size: number): Buffer {
  const parts = pieces(body, size).map((p) =>
    Buffer.concat([Buffer.from(`${p.length.toString(16)}\r\n`), p, Buffer.from("\r\n")]),
  );
  return Buffer.concat([...parts, Buffer.from("0\r\n\r\n")]);
}

describe("HTTP meter: the bytes an endpoint sends back on one connection", () => {
  const wire = wireFor("/v1/messages");
  if (!wire) throw new Error("no wire");
  const sse = Buffer.from(wire.events(REPLY).join(""));
  const json = Buffer.from(JSON.stringify(wire.json(REPLY)));
  const cases: [string, Buffer, number][] = [
    [
      "chunked SSE, then a content-length JSON reply on the same connection",
      Buffer.concat([
        http(
          "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked",
          chunked(sse, 100),
        ),
        http(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${json.length}`,
          json,
        ),
      ]),
      2,
    ],
    [
      "a 100 Continue before the reply, and a body delimited by the close",
      Buffer.concat([
        Buffer.from("HTTP/1.1 100 Continue\r\n\r\n"),
        http("HTTP/1.1 200 OK\r\nConnection: close", sse),
      ]),
      1,
    ],
  ];
  for (const [name, bytes, replies] of cases)
    for (const size of [1, 13, 4096])
      it(`${name} (chunks of ${size})`, () => {
        const deltas: UsageDelta[] = [];
        const m = createHttpMeter((d) => deltas.push(d));
        for (const c of pieces(bytes, size)) m.push(c);
        m.end();
        expect(sum(deltas)).toEqual({
          input: 1200 * replies,
          output: 80 * replies,
          cache_read: 3000 * replies,
          cache_write: 50 * replies,
        });
        expect(m.state()).toEqual({ responses: replies, unread: 0 });
      });

  it("a compressed body is counted as unread, not guessed", () => {
    const deltas: UsageDelta[] = [];
    const m = createHttpMeter((d) => deltas.push(d));
    m.push(
      http("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 4", Buffer.from("abcd")),
    );
    m.end();
    expect(deltas).toEqual([]);
    expect(m.state()).toEqual({ responses: 1, unread: 1 });
  });

  it("bytes that are not HTTP/1.x stop the meter, never throw", () => {
    const m = createHttpMeter(() => undefined);
    expect(() => {
      m.push(Buffer.from("garbage\r\n\r\nmore"));
      m.push(Buffer.from("HTTP/1.1 200 OK\r\n\r\n"));
      m.end();
    }).not.toThrow();
  });
});
