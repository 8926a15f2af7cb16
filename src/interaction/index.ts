/** The dual-agent `auto_user` loop. See docs/interaction.md. */
export { resolveInteraction, taskInteractionSettings } from "./config.js";
export { runInteractionLoop, type InteractionRecord } from "./loop.js";
export { makeSimulator } from "./simulator.js";
