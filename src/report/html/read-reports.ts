/** The results-folder reader lives in src/store/read.ts; the HTML code uses it under these names. */
export { readReports as readReportsPooled, type ReportCache } from "../../store/read.js";
export { mapPool } from "../../util/pool.js";
