/** skillbench's version: in a module of its own so that the CLI reads it without loading the runner. */
export const SKILLBENCH_VERSION = "0.1.0";
