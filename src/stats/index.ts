export { passAtK, passHatKStrict, passHatKUnbiased, defaultKs } from "./pass-at-k.js";
export { wilsonInterval, newcombeInterval, type Interval } from "./wilson.js";
export { normalQuantile, Z95 } from "./normal.js";
export { mean, stdev, flipRate } from "./descriptive.js";
export { mcnemarExact, signTest } from "./binomial-tests.js";
export { repsNeeded, repsNeededNonInferiority } from "./power.js";
export { mulberry32 } from "./prng.js";
export {
  macroPassAtK,
  macroPassHatK,
  pooledPassRate,
  type PerTaskOutcomes,
  type TaskStatistic,
  type PassHatEstimator,
} from "./task-statistics.js";
export {
  bootstrapInterval,
  bootstrapPairedDifference,
  quantileSorted,
  type BootstrapOptions,
  type BootstrapResult,
} from "./bootstrap.js";
export {
  discordantPairs,
  taskSignCounts,
  type DiscordantCounts,
  type SignCounts,
} from "./paired.js";
export { fisherExact } from "./fisher.js";
