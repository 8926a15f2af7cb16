import { describe, expect, it } from "vitest";
import {
  apiErrorOf,
  findResultEvents,
  hasResultEvent,
  lastResultEvent,
} from "../../../src/analysis/result-event.js";

describe("hasResultEvent", () => {
  it.each<[string, string, boolean]>([
    ["empty", "", false],
    ["a result object", '{"type":"result","is_error":false}', true],
    [
      "result after other events",
      '{"type":"system"}\n{"type":"assistant"}\n{"type":"result"}\n',
      true,
    ],
    ["indented and CRLF", '  {"type":"result"}\r\n', true],
    ["no result", '{"type":"system"}\n{"type":"assistant"}', false],
    ["bare number line", '42\n{"type":"system"}', false],
    ["array line with a result-looking object", '[{"type":"result"}]', false],
    ["null / string / bool lines", 'null\n"result"\ntrue', false],
    ["not JSON", 'Error: something {"type":"result"', false],
    ["truncated last line", '{"type":"system"}\n{"type":"resu', false],
    ["type is not the string result", '{"type":["result"]}', false],
    [
      "result with wrongly typed fields still counts",
      '{"type":"result","is_error":"yes","result":5}',
      true,
    ],
  ])("%s -> %s", (_n, stdout, expected) => {
    expect(hasResultEvent(stdout)).toBe(expected);
  });

  it("a Claude Code style result line (shape of a real transcript) is found", () => {
    const line =
      '{"type":"result","subtype":"success","is_error":false,"duration_ms":5120,"num_turns":4,"result":"Done.",' +
      '"session_id":"0b6d","total_cost_usd":0.0123,"usage":{"input_tokens":10,"output_tokens":20},' +
      '"terminal_reason":"completed","permission_denials":[]}';
    expect(hasResultEvent(`{"type":"system","subtype":"init"}\n${line}\n`)).toBe(true);
    expect(lastResultEvent(line)).toMatchObject({
      is_error: false,
      terminal_reason: "completed",
      result: "Done.",
    });
  });
});

describe("findResultEvents / lastResultEvent / apiErrorOf", () => {
  const apiError =
    '{"type":"system","subtype":"api_retry","attempt":1,"error_status":429}\n' +
    '{"type":"result","subtype":"success","is_error":true,"terminal_reason":"api_error","api_error_status":429,"result":"API Error: Request rejected (429) · mock 429"}\n';

  it("extracts fields, tolerating wrong types", () => {
    const events = findResultEvents(
      '{"type":"result","is_error":"x","subtype":"success"}\n7\n' + apiError,
    );
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({
      line: 1,
      is_error: false,
      subtype: "success",
      terminal_reason: null,
      api_error_status: null,
      result: null,
    });
    expect(events[1]?.line).toBe(4);
  });

  it.each<[string, string, { status: number | null; message: string } | null]>([
    [
      "api error result",
      apiError,
      { status: 429, message: "API Error: Request rejected (429) · mock 429" },
    ],
    [
      "max turns is not an api error",
      '{"type":"result","is_error":true,"terminal_reason":"max_turns","result":null}',
      null,
    ],
    [
      "completed",
      '{"type":"result","is_error":false,"terminal_reason":"completed","result":"done"}',
      null,
    ],
    ["no result", '{"type":"system"}', null],
    [
      "api error without status or text",
      '{"type":"result","is_error":true,"terminal_reason":"api_error"}',
      { status: null, message: "" },
    ],
  ])("%s", (_n, stdout, expected) => {
    expect(apiErrorOf(lastResultEvent(stdout))).toEqual(expected);
  });
});
