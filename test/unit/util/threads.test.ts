/**
 * util/threads.ts: items handled on worker threads, each result taken on the main thread; the
 * first error thrown as the error it was. The worker is test/fixtures/threads/square-worker.mjs
 * over the built pool (dist/), as the CLI's threads run it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  errorFromSent,
  errorToSend,
  InputError,
  SkillbenchError,
} from "../../../src/core/errors.js";
import { runOnThreads } from "../../../src/util/threads.js";
import { assertBuilt } from "../../helpers/cli.js";

const WORKER = new URL("../../fixtures/threads/square-worker.mjs", import.meta.url);

async function squares(items: number[], threads: number, offset = 0) {
  const got = new Map<number, number>();
  const order: number[] = [];
  await runOnThreads({
    module: WORKER,
    settings: { offset },
    items,
    threads,
    result: z.number(),
    take: (i, r) => {
      expect(got.has(i)).toBe(false);
      got.set(i, r);
      order.push(i);
    },
    reviveError: errorFromSent,
  });
  return { got, order };
}

describe("runOnThreads", () => {
  assertBuilt();

  it("takes every item's result once, by its position, on any number of threads", async () => {
    const items = Array.from({ length: 300 }, (_, i) => i);
    for (const threads of [1, 2, 3]) {
      const { got } = await squares(items, threads, 5);
      expect(got.size).toBe(300);
      for (const i of items) expect(got.get(i)).toBe(i * i + 5);
    }
    expect((await squares([], 2)).got.size).toBe(0);
    expect((await squares([4], 3)).got.get(0)).toBe(16);
  });

  it("throws the first error as the error it was, after the batches in flight are taken", async () => {
    const items = Array.from({ length: 200 }, (_, i) => (i === 150 ? -1 : i));
    const taken: number[] = [];
    const err = await runOnThreads({
      module: WORKER,
      settings: { offset: 0 },
      items,
      threads: 2,
      result: z.number(),
      take: (i) => void taken.push(i),
      reviveError: errorFromSent,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe("bad item -1");
    expect((err as InputError).details).toEqual({ file: "items.txt", line: 7 });
    // Runs before the bad one were all taken; the bad one never was.
    expect(taken).not.toContain(150);
    for (let i = 0; i < 140; i++) expect(taken).toContain(i);
  });

  it("rejects when a thread dies, and when taking a result fails", async () => {
    await expect(squares([1, 2, -2, 4], 2)).rejects.toThrow(/exited with code 3/);
    await expect(
      runOnThreads({
        module: WORKER,
        settings: { offset: 0 },
        items: [1, 2, 3],
        threads: 2,
        result: z.number(),
        take: (_i, r) => {
          if (r === 4) throw new Error("cannot take 4");
        },
        reviveError: errorFromSent,
      }),
    ).rejects.toThrow(/cannot take 4/);
    // Answers that are not what the caller's schema says are refused.
    await expect(
      runOnThreads({
        module: WORKER,
        settings: { offset: 0 },
        items: [1],
        threads: 1,
        result: z.string(),
        take: () => undefined,
        reviveError: errorFromSent,
      }),
    ).rejects.toThrow();
  });
});

describe("errorToSend / errorFromSent", () => {
  it.each([
    [
      "an InputError stays one, with its details",
      new InputError("bad", { file: "f", field: "x", line: 2 }),
    ],
    ["a SkillbenchError keeps its code", new SkillbenchError("disk_full", "full", { file: "g" })],
    ["a system error keeps its code", Object.assign(new Error("no space"), { code: "ENOSPC" })],
    ["a plain error its message", new Error("boom")],
  ])("%s", (_name, e) => {
    const back = errorFromSent(structuredClone(errorToSend(e)));
    expect(back.constructor).toBe(e.constructor);
    expect(back.message).toBe(e.message);
    expect(back.stack).toBe(e.stack);
    expect(back.name).toBe(e.name);
    if (e instanceof SkillbenchError) {
      expect(back).toBeInstanceOf(SkillbenchError);
      if (back instanceof SkillbenchError) {
        expect(back.code).toBe(e.code);
        expect(back.details).toEqual(e.details);
      }
    }
    if ("code" in e) expect((back as Error & { code?: unknown }).code).toBe(e.code);
  });

  it("sends a thrown non-error as its text", () => {
    expect(errorFromSent(errorToSend("just text")).message).toBe("just text");
  });
});
