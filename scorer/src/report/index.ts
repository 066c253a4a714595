export { loadReportData, type ReportData, type ReportRun, type ReportDelta, type ReportOptions, type MetricMean, type ReportRunRef } from "./data.js";
export { renderReportHtml, chartConfigs, chartJsSource, latestPerVersion, CHART_IDS } from "./html.js";
export { screenshotTrend, withReportPage, findChromium, BrowserMissingError, CHROMIUM_ARGS } from "./browser.js";
