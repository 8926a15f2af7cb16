// The claude driver against its real CLI: test/helpers/agents-suite.ts.
import { describeAgentAgainstRealCli } from "../helpers/agents-suite.js";

describeAgentAgainstRealCli("claude");
