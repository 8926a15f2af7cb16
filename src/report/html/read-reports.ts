/** The results-folder reader lives in src/store/read.ts; the HTML code uses it under these names. */
export {
  readReports as readReportsPooled,
  READ_CONCURRENCY,
  type ReportCache,
  type StoredReports as PooledReports,
} from "../../store/read.js";
export { mapPool } from "../../util/pool.js";
