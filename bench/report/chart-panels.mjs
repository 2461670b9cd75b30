// The chart's data: one panel per HTTP scenario, servers in table order.
import { scenarios } from '../http/scenarios.mjs';
import { servers, baseline } from '../http/servers.mjs';
import { httpRows } from './http-summary.mjs';

export function chartPanels(http) {
  return scenarios
    .map((scenario) => ({
      title: scenario.title,
      rows: httpRows(
        http,
        servers.map((s) => s.name),
        baseline,
        scenario.id,
      ),
    }))
    .filter((panel) => panel.rows.length > 0);
}
