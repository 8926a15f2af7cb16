import { isRecord } from "../../../src/core/json.js";
import { describe, expect, it } from "vitest";
import { buildReply } from "../../../src/model/build-reply.js";
import { parseModelScript } from "../../../src/model/load-script.js";
import { parseRunPath, runBaseUrl } from "../../../src/model/run-path.js";
import { parseSkillListing } from "../../../src/model/request-facts.js";
import { cutPoint, encodeSseEvent, splitChunks, sseEvents } from "../../../src/model/sse.js";

const script = parseModelScript({
  defaults: { usage: { input_tokens: 7, cache_read_input_tokens: 3 } },
  rules: [
    {
      steps: [
        {
          text: "Hello there",
          tool_use: { name: "Write", input: { file_path: "a.txt", content: "x" } },
        },
        { text: "hi", model: "m2", stop_reason: "max_tokens", usage: { output_tokens: 9 } },
      ],
    },
  ],
});
const plain = (i: number) => {
  const s = script.rules[0]!.steps[i]!;
  if (s.kind !== "plain") throw new Error("expected plain step");
  return s.step;
};

describe("buildReply", () => {
  it("builds text + tool_use with deterministic ids, tool_use stop reason and default usage", () => {
    const a = buildReply(script, plain(0), "claude-req", "seed");
    expect(a).toEqual(buildReply(script, plain(0), "claude-req", "seed"));
    expect(a.id).not.toBe(buildReply(script, plain(0), "claude-req", "other").id);
    expect(a).toMatchObject({
      type: "message",
      role: "assistant",
      model: "claude-req",
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 7, cache_read_input_tokens: 3, cache_creation_input_tokens: 0 },
    });
    expect(a.content[1]).toMatchObject({
      type: "tool_use",
      name: "Write",
      input: { file_path: "a.txt", content: "x" },
    });
    expect(a.content[1]?.type === "tool_use" ? a.content[1].id : "").toMatch(
      /^toolu_[0-9a-f]{24}$/,
    );
    expect(a.usage.output_tokens).toBeGreaterThan(0);
  });
  it("honours model, stop_reason and usage overrides", () => {
    expect(buildReply(script, plain(1), "claude-req", "s")).toMatchObject({
      model: "m2",
      stop_reason: "max_tokens",
      usage: { output_tokens: 9 },
    });
  });
});

describe("sseEvents", () => {
  const msg = buildReply(script, plain(0), null, "seed");
  const events = sseEvents(msg);
  it("follows the Messages streaming event order", () => {
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[0]?.data).toMatchObject({
      message: { id: msg.id, content: [], stop_reason: null, model: "skillbench-mock" },
    });
    expect(events[6]?.data).toMatchObject({
      index: 1,
      content_block: { type: "tool_use", name: "Write", input: {} },
    });
    expect(events[11]?.data).toMatchObject({
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { output_tokens: msg.usage.output_tokens },
    });
  });
  it("deltas reassemble to the text and the tool input", () => {
    const pieces = (index: number, key: "text" | "partial_json") =>
      events
        .filter((e) => e.event === "content_block_delta" && e.data.index === index)
        .map((e) => {
          const d = e.data.delta;
          return isRecord(d) && typeof d[key] === "string" ? d[key] : "";
        })
        .join("");
    expect(pieces(0, "text")).toBe("Hello there");
    expect(JSON.parse(pieces(1, "partial_json"))).toEqual({ file_path: "a.txt", content: "x" });
  });
  it("encodes event/data pairs", () => {
    expect(encodeSseEvent({ event: "message_stop", data: { type: "message_stop" } })).toBe(
      'event: message_stop\ndata: {"type":"message_stop"}\n\n',
    );
  });
});

describe("splitChunks and cutPoint", () => {
  it.each([
    ["", []],
    ["ab", ["a", "b"]],
    ["abcdefg", ["abc", "def", "g"]],
    ["😀😀", ["😀", "😀"]],
  ])("splitChunks(%j)", (s, expected) => expect(splitChunks(s)).toEqual(expected));
  it.each([
    [13, null, 6],
    [3, null, 1],
    [13, 2, 2],
    [13, 50, 12],
  ])("cutPoint(%i, %s) = %i", (total, after, expected) =>
    expect(cutPoint(total, after)).toBe(expected),
  );
});

describe("run paths", () => {
  it("round-trips encoded segments", () => {
    const base = runBaseUrl("http://127.0.0.1:9/", {
      task: "fix bug/1",
      treatment: "WITH SKILL",
      rep: 3,
      role: "judge",
    });
    expect(base).toBe("http://127.0.0.1:9/runs/fix%20bug%2F1/WITH%20SKILL/3/judge");
    expect(parseRunPath(`${new URL(base).pathname}/v1/messages`)).toEqual({
      ok: true,
      run: { task: "fix bug/1", treatment: "WITH SKILL", rep: 3, role: "judge" },
      rest: "/v1/messages",
    });
  });
  it.each([
    [
      "/v1/messages",
      {
        ok: true,
        run: { task: null, treatment: null, rep: 1, role: "subject" },
        rest: "/v1/messages",
      },
    ],
    ["/runs/a/b/0/subject/v1/messages", { ok: false }],
    ["/runs/a/b/1/boss/v1/messages", { ok: false }],
    ["/runs/a/b", { ok: false }],
  ])("parseRunPath(%s)", (p, expected) => expect(parseRunPath(p)).toMatchObject(expected));
});

describe("parseSkillListing", () => {
  it.each([
    [
      "The following skills are available for use with the Skill tool:\n\n- hello: Hi\n- plug:deep: x\ncontinued\n- b-c: y\n\nWhile ...\n- notaskill: z",
      ["hello", "plug:deep", "b-c"],
    ],
    ["no listing here\n- x: y", []],
  ])("%#", (text, expected) => expect(parseSkillListing(text)).toEqual(expected));
});
