import { loadModelScript } from "./load-script.js";
import { startModelServer, type ModelServer } from "./server.js";

/** `skillbench model serve --script FILE [--port N] [--record FILE]`: load the script and start the server. */
export async function serveModel(opts: {
  scriptFile: string;
  port?: number;
  recordFile?: string;
}): Promise<ModelServer> {
  const script = await loadModelScript(opts.scriptFile);
  return startModelServer({
    script,
    port: opts.port,
    recordFile: opts.recordFile,
    scriptFile: opts.scriptFile,
  });
}
