/** `skillbench doctor`: what this machine offers and how to fix the gaps. */
export { runDoctor } from "./run-doctor.js";
export { renderDoctor, worstStatus } from "./render.js";
export type { DoctorCheck } from "./types.js";
