/** Launch Debian's Chromium through playwright-core with the flags the project's browser tests use. */
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function assertChromium(): void {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\``);
}

/** A persistent context with a fresh --user-data-dir (playwright passes it as the profile folder). */
export async function launchChromium(
  viewport = { width: 1280, height: 900 },
): Promise<BrowserContext> {
  assertChromium();
  const userDataDir = await mkdtemp(path.join(tmpdir(), "skillbench-chromium-"));
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport,
  });
}
