import { describe, expect, it } from "vitest";
import { pickValidatorJson } from "../../../src/validators/index.js";

describe("pickValidatorJson", () => {
  it.each<[string, string | null, string, unknown]>([
    ["results file wins", '{"passed":["f"]}', '{"passed":["s"]}', { passed: ["f"] }],
    ["unparseable results file -> stdout", "{oops", '{"passed":["s"]}', { passed: ["s"] }],
    ["results file array -> stdout", "[1]", '{"a":1}', { a: 1 }],
    ["empty results file -> stdout", "", '{"a":1}', { a: 1 }],
    [
      "whole stdout object (multi-line)",
      null,
      '{\n  "passed": ["a"],\n  "failed": []\n}\n',
      { passed: ["a"], failed: [] },
    ],
    ["whole stdout with surrounding space", null, '  {"a":1}  \n', { a: 1 }],
    ["last JSON object line", null, 'log\n{"a":1}\nmore log\n{"a":2}\ntrailing text\n', { a: 2 }],
    ["CRLF lines", null, 'log\r\n{"a":3}\r\n', { a: 3 }],
    ["array lines are not objects", null, '{"a":1}\n[1,2]\n', { a: 1 }],
    ["scalar stdout", null, "42\n", null],
    ["array stdout", null, '[{"a":1}]', null],
    ["no JSON at all", null, "hello\nworld\n", null],
    ["empty stdout", null, "", null],
    ["broken last line, earlier object", null, '{"a":1}\n{"a":', { a: 1 }],
  ])("%s", (_name, file, stdout, expected) => {
    expect(pickValidatorJson(file, stdout)).toEqual(expected);
  });
});
