export {
  ALERT_DATASOURCE,
  ALERT_ENV,
  ALERT_SETTINGS,
  ALERT_SQL,
  ALERT_WEBHOOK_ENV,
  ALERTING,
  ALERTS,
  type AlertId,
  type AlertQueryContext,
  type AlertSetting,
  type AlertSpec,
  alertSpecs,
  alertsYaml,
  clickhouseCustomSettingsXml,
  expandAlertSql,
} from "./alerts.js";
export { buildDashboard, type ClickHouseQuery, ClickHouseQueryBuilder, DASHBOARDS, DATASOURCE, type DashboardSpec, type PanelSpec } from "./dashboards.js";
export { renderAll, writeAll } from "./generate.js";
export { applyConditionalAll, applyMacros, applyVariables, expandPanelSql, type QueryContext, type VariableValue } from "./macros.js";
export { CLICKHOUSE_CUSTOM_SETTINGS_PATH, DATASOURCE_ENV, datasourceYaml, GRAFANA_DASHBOARDS_PATH, GRAFANA_PROVISIONING_PATH, providerYaml } from "./provisioning.js";
export { filters, PANEL_SQL, type PanelId, runFilters, VARIABLE_SQL, VARIABLES } from "./sql.js";
