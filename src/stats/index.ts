export { defaultKs } from "./pass-at-k.js";
export { wilsonInterval, newcombeInterval, type Interval } from "./wilson.js";
export { mean, stdev, flipRate } from "./descriptive.js";
export { mcnemarExact, signTest } from "./binomial-tests.js";
export { repsNeeded } from "./power.js";
export {
  macroPassAtK,
  macroPassHatK,
  pooledPassRate,
  type PerTaskOutcomes,
} from "./task-statistics.js";
export {
  bootstrapIntervalsOfArms,
  bootstrapPairedDifference,
  quantileSorted,
} from "./bootstrap.js";
export { discordantPairs, taskSignCounts } from "./paired.js";
export { fisherExact } from "./fisher.js";
export {
  alphaSpent,
  intervalBand,
  sequentialInterval,
  sequentialStops,
  type Band,
  type Spending,
} from "./sequential.js";
export { mulberry32 } from "./prng.js";
export { holm, regressionP, scoreDifference, scoreInterval } from "./score-difference.js";
