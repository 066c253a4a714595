export { DASHBOARDS, DATASOURCE, buildDashboard, ClickHouseQueryBuilder, type ClickHouseQuery, type DashboardSpec, type PanelSpec } from "./dashboards.js";
export { PANEL_SQL, VARIABLE_SQL, VARIABLES, filters, runFilters, type PanelId } from "./sql.js";
export { expandPanelSql, applyConditionalAll, applyVariables, applyMacros, type QueryContext, type VariableValue } from "./macros.js";
export { datasourceYaml, providerYaml, DATASOURCE_ENV, GRAFANA_DASHBOARDS_PATH, GRAFANA_PROVISIONING_PATH } from "./provisioning.js";
export { renderAll, writeAll } from "./generate.js";
