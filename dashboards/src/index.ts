export { DASHBOARDS, DATASOURCE, buildDashboard, ClickHouseQueryBuilder, type ClickHouseQuery, type DashboardSpec, type PanelSpec } from "./dashboards.js";
export { PANEL_SQL, VARIABLE_SQL, VARIABLES, filters, runFilters, type PanelId } from "./sql.js";
export { expandPanelSql, applyConditionalAll, applyVariables, applyMacros, type QueryContext, type VariableValue } from "./macros.js";
export { datasourceYaml, providerYaml, DATASOURCE_ENV, GRAFANA_DASHBOARDS_PATH, GRAFANA_PROVISIONING_PATH, CLICKHOUSE_CUSTOM_SETTINGS_PATH } from "./provisioning.js";
export { ALERTS, ALERT_SQL, ALERT_SETTINGS, ALERT_ENV, ALERT_WEBHOOK_ENV, ALERT_DATASOURCE, ALERTING, alertsYaml, clickhouseCustomSettingsXml, expandAlertSql, type AlertId, type AlertSpec, type AlertSetting, type AlertQueryContext } from "./alerts.js";
export { renderAll, writeAll } from "./generate.js";
