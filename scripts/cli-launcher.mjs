#!/usr/bin/env node
// The `skillbench` bin (copied to dist/cli/main.js by scripts/build-cli.mjs, which fills in
// BUNDLE_HASH): runs the CLI bundle, dist/cli/bundle.cjs, compiled with V8's code cache.
//
// Why: compiling the ~2.3 MB bundle (and the functions a command then compiles lazily) cost
// ~60-100 ms of CPU at every invocation, before any work. The first invocation stores V8's code
// cache of the bundle after its command has run (the functions it used included); later ones hand
// it to V8, which skips most of the compiling.
//
// The cache is a file per command (the functions `run` compiles are not those of `report`) beside
// the bundle (dist/cli/), or, where that folder cannot be written,
// under $XDG_CACHE_HOME/skillbench/v8 (default ~/.cache/skillbench/v8). Its name carries the bundle's
// content hash (from the build), its size and modification time, node's version and the
// architecture, so a rebuilt or edited bundle, or another node, never reads a cache made for
// another; V8 checks its own version and flags too and rejects what does not fit (then the bundle
// is compiled as usual and the cache written anew). A cache that cannot be read or written only
// costs the compile time saved; it never changes what the CLI does.
//
// It also raises V8's interrupt budget (how much bytecode a function runs between the checks
// that decide to optimize it) from 67,584 to 500,000: V8's default suits long-lived pages, where
// code that got hot stays hot. A skillbench command is a batch: `report` walks 10,000 runs once
// per section, and at the default each walk's function is sent to the optimizing compiler,
// ~370 compiles (~2.5 s of compile jobs on V8's helper threads) of which most finish too late to
// pay for themselves. With the higher budget the cold `report` of 10,000 runs takes ~25% less
// CPU and less wall time; at 100,000 runs it is unchanged (bench/results/scale.md, "fourth
// round"). Before the bundle is compiled: the flag applies to the functions created after it is
// set, and V8's code cache, which records the flags, is made and read under it.
import {
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";

v8.setFlagsFromString("--interrupt-budget=500000");

const BUNDLE_HASH = "__BUNDLE_HASH__";
const here = path.dirname(fileURLToPath(import.meta.url));
const bundle = path.join(here, "bundle.cjs");
// ASCII only (scripts/build-cli.mjs escapes the rest): latin1 reads it exactly, without UTF-8 decoding.
const source = readFileSync(bundle, "latin1");
const stat = statSync(bundle);
// One cache per command (`run`, `report`...): each holds the functions its own command compiled.
const command = /^[a-z][a-z-]{0,30}$/.test(process.argv[2] ?? "") ? process.argv[2] : "other";
const bundleKey = `bundle-${BUNDLE_HASH}-${process.version}-${process.arch}-${stat.size}-${Math.trunc(stat.mtimeMs)}-`;
const cacheName = `${bundleKey}${command}.v8cache`;
const userCache = path.join(
  process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"),
  "skillbench",
  "v8",
);

function readCache() {
  for (const dir of [here, userCache]) {
    try {
      return readFileSync(path.join(dir, cacheName));
    } catch {
      // not there: the next place, else compile without
    }
  }
  return undefined;
}

/** Write the cache atomically (a temporary name, then rename); drop this bundle's older caches. */
function writeCache(data) {
  for (const dir of [here, userCache]) {
    const tmp = path.join(dir, `.${cacheName}.${process.pid}.tmp`);
    try {
      if (dir === userCache) mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, data);
      renameSync(tmp, path.join(dir, cacheName));
      // Caches of another bundle, node or architecture are stale (in the user's folder, only this
      // bundle's: it may hold other installs').
      const mine = dir === here ? "bundle-" : `bundle-${BUNDLE_HASH}-`;
      for (const f of readdirSync(dir))
        if (f.startsWith(mine) && f.endsWith(".v8cache") && !f.startsWith(bundleKey))
          unlinkSync(path.join(dir, f));
      return;
    } catch {
      try {
        unlinkSync(tmp);
      } catch {
        // never made
      }
    }
  }
}

const cachedData = readCache();
// The bundle is CommonJS, run as node runs a CommonJS module (the same wrapper and arguments).
const script = new vm.Script(
  `(function (exports, require, module, __filename, __dirname) {${source.replace(/^#!.*/, "")}\n})`,
  { filename: bundle, cachedData },
);
if (cachedData === undefined || script.cachedDataRejected)
  process.once("exit", () => writeCache(script.createCachedData()));
const mod = { exports: {} };
script.runInThisContext()(mod.exports, createRequire(bundle), mod, bundle, here);
