/**
 * A treatment's `hooks:` (suite YAML). Their shape is Claude Code's `hooks` setting, the one agent
 * that takes hooks today; the driver that takes them writes them (`AgentDriver.installHooks`).
 */
import { z } from "zod";

/** One hook command of Claude Code's settings (`hooks.<Event>[].hooks[]`). */
const HookCommandSchema = z.object({
  type: z.literal("command"),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
});
/** Claude Code's `hooks` setting: event name -> matcher groups (written to .claude/settings.json). */
export const AgentHooksSchema = z.record(
  z.string(),
  z.array(z.object({ matcher: z.string().optional(), hooks: z.array(HookCommandSchema) })),
);
export type AgentHooks = z.infer<typeof AgentHooksSchema>;
