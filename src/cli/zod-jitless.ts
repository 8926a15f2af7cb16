/**
 * Zod's parsers without their generated code. By default zod compiles a fast parser for each
 * object schema (with `new Function`) the first time it parses with it; in a CLI process that
 * compiling costs more than it saves: ~10 ms for the run report's schema alone, ~40 ms of CPU
 * per `skillbench run`, where a report parses as fast without it (bench/run-overhead.mjs
 * measures the CLI's CPU). Zod reads the setting when a schema is built, so main.ts imports
 * this module before anything that builds one.
 */
import { z } from "zod";

z.config({ jitless: true });
