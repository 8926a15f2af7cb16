export type CheckStatus = "ok" | "warn" | "fail";

export interface DoctorCheck {
  name: string;
  status: CheckStatus;
  /** What was found. */
  detail: string;
  /** What to do about it (null when ok). */
  fix: string | null;
}

export interface DoctorReport {
  checks: DoctorCheck[];
  /** The worst status. */
  status: CheckStatus;
}

export interface DoctorOptions {
  agentBin?: string | undefined;
  env?: Record<string, string | undefined>;
  /** `--model-script` given: the model endpoint is the built-in scripted server. */
  modelScript?: string | undefined;
  baseImage?: string | undefined;
  chromium?: string | undefined;
  /** `--fix`: remove the containers and temporary folders of skillbench processes that are gone. */
  fix?: boolean | undefined;
}
