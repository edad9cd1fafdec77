/** The operator's view of businesses' reports of bad leads: counts by reason and by form, and the newest. */
import { endpoint, jsonResponse, storeCall } from "../http.ts";
import { adminSpec, type AdminDeps, type AdminHandler } from "./endpoint.ts";

/** GET /api/admin/reports -> LeadReportSummary. */
export function adminReportsHandler(deps: AdminDeps = {}): AdminHandler {
  return endpoint(adminSpec("reports", ["GET"]), deps, async ({ store }) => {
    const summary = await storeCall(() => store.leadReports.summary());
    return jsonResponse(summary);
  });
}
