/**
 * A local OTLP/HTTP traces receiver for the tests: decodes real OTLP requests, binary protobuf
 * (with a small wire-format reader over the field numbers of opentelemetry-proto's
 * trace/v1/trace.proto and common/v1/common.proto) and JSON, into one plain shape. It also
 * plays Langfuse's scores API and LangSmith's datasets/examples/runs/feedback API, checking each
 * request's shape and credentials.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  start: number;
  end: number;
  attributes: Record<string, unknown>;
  events: Array<{ name: string; time: number; attributes: Record<string, unknown> }>;
  status: { code: number; message: string };
  scope: string;
  resource: Record<string, unknown>;
}

export interface ReceivedRequest {
  path: string;
  contentType: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  json: unknown;
}

// ---------- protobuf wire format ----------

type Field = { no: number; wire: number; value: bigint | Buffer };

function readVarint(buf: Buffer, pos: { i: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[pos.i++];
    if (b === undefined) throw new Error("protobuf: truncated varint");
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
    shift += 7n;
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  const pos = { i: 0 };
  while (pos.i < buf.length) {
    const key = Number(readVarint(buf, pos));
    const no = key >>> 3;
    const wire = key & 7;
    if (wire === 0) out.push({ no, wire, value: readVarint(buf, pos) });
    else if (wire === 1) {
      out.push({ no, wire, value: buf.subarray(pos.i, pos.i + 8) });
      pos.i += 8;
    } else if (wire === 2) {
      const len = Number(readVarint(buf, pos));
      out.push({ no, wire, value: buf.subarray(pos.i, pos.i + len) });
      pos.i += len;
    } else if (wire === 5) {
      out.push({ no, wire, value: buf.subarray(pos.i, pos.i + 4) });
      pos.i += 4;
    } else throw new Error(`protobuf: unsupported wire type ${wire}`);
  }
  return out;
}

const bytesOf = (f: Field): Buffer => f.value as Buffer;
const str = (f: Field): string => bytesOf(f).toString("utf8");
const nanosToMs = (b: Buffer): number => Number(b.readBigUInt64LE(0) / 1_000_000n);

function anyValue(buf: Buffer): unknown {
  for (const f of fields(buf)) {
    if (f.no === 1) return str(f);
    if (f.no === 2) return (f.value as bigint) !== 0n;
    if (f.no === 3) return Number(BigInt.asIntN(64, f.value as bigint));
    if (f.no === 4) return bytesOf(f).readDoubleLE(0);
    if (f.no === 5)
      return fields(bytesOf(f))
        .filter((x) => x.no === 1)
        .map((x) => anyValue(bytesOf(x)));
  }
  return null;
}

function keyValues(list: Field[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list) {
    let key = "";
    let value: unknown = null;
    for (const f of fields(bytesOf(kv))) {
      if (f.no === 1) key = str(f);
      if (f.no === 2) value = anyValue(bytesOf(f));
    }
    out[key] = value;
  }
  return out;
}

function decodeProtobuf(buf: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of fields(buf).filter((f) => f.no === 1)) {
    const rsf = fields(bytesOf(rs));
    const resField = rsf.find((f) => f.no === 1);
    const resource = resField ? keyValues(fields(bytesOf(resField)).filter((f) => f.no === 1)) : {};
    for (const ss of rsf.filter((f) => f.no === 2)) {
      const ssf = fields(bytesOf(ss));
      const scopeField = ssf.find((f) => f.no === 1);
      const scope = scopeField
        ? (fields(bytesOf(scopeField)).find((f) => f.no === 1) ?? null)
        : null;
      for (const sp of ssf.filter((f) => f.no === 2)) {
        const s: ReceivedSpan = {
          traceId: "",
          spanId: "",
          parentSpanId: "",
          name: "",
          kind: 0,
          start: 0,
          end: 0,
          attributes: {},
          events: [],
          status: { code: 0, message: "" },
          scope: scope ? str(scope) : "",
          resource,
        };
        const attrs: Field[] = [];
        for (const f of fields(bytesOf(sp))) {
          if (f.no === 1) s.traceId = bytesOf(f).toString("hex");
          else if (f.no === 2) s.spanId = bytesOf(f).toString("hex");
          else if (f.no === 4) s.parentSpanId = bytesOf(f).toString("hex");
          else if (f.no === 5) s.name = str(f);
          else if (f.no === 6) s.kind = Number(f.value as bigint);
          else if (f.no === 7) s.start = nanosToMs(bytesOf(f));
          else if (f.no === 8) s.end = nanosToMs(bytesOf(f));
          else if (f.no === 9) attrs.push(f);
          else if (f.no === 11) {
            const ev = { name: "", time: 0, attributes: {} as Record<string, unknown> };
            const evAttrs: Field[] = [];
            for (const e of fields(bytesOf(f))) {
              if (e.no === 1) ev.time = nanosToMs(bytesOf(e));
              if (e.no === 2) ev.name = str(e);
              if (e.no === 3) evAttrs.push(e);
            }
            ev.attributes = keyValues(evAttrs);
            s.events.push(ev);
          } else if (f.no === 15) {
            for (const st of fields(bytesOf(f))) {
              if (st.no === 2) s.status.message = str(st);
              if (st.no === 3) s.status.code = Number(st.value as bigint);
            }
          }
        }
        s.attributes = keyValues(attrs);
        spans.push(s);
      }
    }
  }
  return spans;
}

// ---------- OTLP/JSON ----------

type J = Record<string, unknown>;
const arr = (v: unknown): J[] => (Array.isArray(v) ? (v as J[]) : []);

function jsonAny(v: unknown): unknown {
  const o = (v ?? {}) as J;
  if ("stringValue" in o) return o["stringValue"];
  if ("boolValue" in o) return o["boolValue"];
  if ("intValue" in o) return Number(o["intValue"]);
  if ("doubleValue" in o) return Number(o["doubleValue"]);
  if ("arrayValue" in o) return arr((o["arrayValue"] as J)["values"]).map(jsonAny);
  return null;
}

function jsonAttrs(list: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of arr(list)) out[String(kv["key"])] = jsonAny(kv["value"]);
  return out;
}

/** JSON ids are hex in OTLP/JSON (base64 in some older exporters: accept both). */
function jsonId(v: unknown, bytes: number): string {
  const s = typeof v === "string" ? v : "";
  if (new RegExp(`^[0-9a-f]{${bytes * 2}}$`, "i").test(s)) return s.toLowerCase();
  const b = Buffer.from(s, "base64");
  return b.length === bytes ? b.toString("hex") : s;
}

function decodeJson(body: unknown): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of arr((body as J)["resourceSpans"])) {
    const resource = jsonAttrs(((rs["resource"] ?? {}) as J)["attributes"]);
    for (const ss of arr(rs["scopeSpans"])) {
      const scope = String(((ss["scope"] ?? {}) as J)["name"] ?? "");
      for (const sp of arr(ss["spans"])) {
        const st = (sp["status"] ?? {}) as J;
        spans.push({
          traceId: jsonId(sp["traceId"], 16),
          spanId: jsonId(sp["spanId"], 8),
          parentSpanId: sp["parentSpanId"] ? jsonId(sp["parentSpanId"], 8) : "",
          name: String(sp["name"]),
          kind: Number(sp["kind"] ?? 0),
          start: Number(BigInt(String(sp["startTimeUnixNano"] ?? "0")) / 1_000_000n),
          end: Number(BigInt(String(sp["endTimeUnixNano"] ?? "0")) / 1_000_000n),
          attributes: jsonAttrs(sp["attributes"]),
          events: arr(sp["events"]).map((e) => ({
            name: String(e["name"]),
            time: Number(BigInt(String(e["timeUnixNano"] ?? "0")) / 1_000_000n),
            attributes: jsonAttrs(e["attributes"]),
          })),
          status: { code: Number(st["code"] ?? 0), message: String(st["message"] ?? "") },
          scope,
          resource,
        });
      }
    }
  }
  return spans;
}

// ---------- the server ----------

export interface Receiver {
  url: string;
  spans: ReceivedSpan[];
  requests: ReceivedRequest[];
  /** Shape problems found in Langfuse / LangSmith requests (must stay empty). */
  problems: string[];
  close(): Promise<void>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export async function startReceiver(
  opts: {
    langfuseAuth?: string;
    langsmithKey?: string;
  } = {},
): Promise<Receiver> {
  const spans: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const problems: string[] = [];
  const datasets = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      let raw: Buffer = Buffer.concat(chunks);
      if (req.headers["content-encoding"] === "gzip") raw = gunzipSync(raw);
      const ct = String(req.headers["content-type"] ?? "");
      const url = new URL(req.url ?? "/", "http://x");
      let json: unknown = null;
      if (ct.includes("json") && raw.length > 0) json = JSON.parse(raw.toString("utf8"));
      requests.push({ path: url.pathname, contentType: ct, headers: req.headers, raw, json });
      const send = (status: number, body: unknown): void => {
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      };
      const p = url.pathname;
      if (p.endsWith("/v1/traces")) {
        if (p.startsWith("/api/public/otel") && req.headers.authorization !== opts.langfuseAuth)
          return send(401, { message: "bad credentials" });
        try {
          spans.push(...(ct.includes("protobuf") ? decodeProtobuf(raw) : decodeJson(json)));
        } catch (e) {
          problems.push(`OTLP decode: ${String(e)}`);
          return send(400, {});
        }
        return send(200, {});
      }
      if (p === "/api/public/scores") {
        const b = (json ?? {}) as J;
        if (req.headers.authorization !== opts.langfuseAuth) return send(401, {});
        if (typeof b["name"] !== "string") problems.push("score without name");
        if (typeof b["value"] !== "number")
          problems.push(`score ${String(b["name"])} value not a number`);
        if (typeof b["traceId"] !== "string")
          problems.push(`score ${String(b["name"])} without traceId`);
        if (!["NUMERIC", "BOOLEAN", "CATEGORICAL"].includes(String(b["dataType"])))
          problems.push(`score ${String(b["name"])}: dataType ${String(b["dataType"])}`);
        if (b["dataType"] === "BOOLEAN" && b["value"] !== 0 && b["value"] !== 1)
          problems.push(`boolean score ${String(b["name"])} = ${String(b["value"])}`);
        return send(200, { id: b["id"] });
      }
      // LangSmith
      if (req.headers["x-api-key"] !== opts.langsmithKey) return send(401, { detail: "bad key" });
      const b = (json ?? {}) as J;
      if (p === "/datasets" && req.method === "GET") {
        const name = url.searchParams.get("name") ?? "";
        const id = datasets.get(name);
        return send(200, id ? [{ id, name }] : []);
      }
      if (p === "/datasets") {
        const name = String(b["name"] ?? "");
        if (!name) problems.push("dataset without name");
        if (datasets.has(name)) return send(409, { detail: "exists" });
        const id = `00000000-0000-4000-8000-${String(datasets.size + 1).padStart(12, "0")}`;
        datasets.set(name, id);
        return send(200, { id, name });
      }
      if (p === "/examples") {
        if (![...datasets.values()].includes(String(b["dataset_id"])))
          problems.push("example: unknown dataset_id");
        if (typeof b["inputs"] !== "object") problems.push("example without inputs");
        return send(200, { id: b["id"] });
      }
      if (p === "/runs") {
        for (const k of ["name", "run_type", "inputs", "start_time"])
          if (b[k] === undefined) problems.push(`run without ${k}`);
        if (
          !["tool", "chain", "llm", "retriever", "embedding", "prompt", "parser"].includes(
            String(b["run_type"]),
          )
        )
          problems.push(`run_type ${String(b["run_type"])}`);
        if (!UUID.test(String(b["id"]))) problems.push(`run id ${String(b["id"])} is not a UUID`);
        if (
          b["dotted_order"] !== undefined &&
          !String(b["dotted_order"]).endsWith(`Z${String(b["id"])}`)
        )
          problems.push(`dotted_order ${String(b["dotted_order"])} does not end in Z<id>`);
        return send(200, {});
      }
      if (p === "/feedback") {
        if (!UUID.test(String(b["run_id"]))) problems.push("feedback without run_id");
        if (typeof b["key"] !== "string") problems.push("feedback without key");
        return send(200, { id: b["id"] });
      }
      problems.push(`unexpected ${req.method ?? ""} ${p}`);
      return send(404, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    problems,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
