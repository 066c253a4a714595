export { ALL_SETTINGS, HEAP_GROWTH_PERCENT, LOG_LEVELS, SASL_MECHANISMS, SCORER_SOURCES, SCORER_WRITE_BATCH, SECURITY_PROTOCOLS, SETTINGS } from "./catalog.js";
export { type EffectiveSetting, effectiveSettings, formatEffectiveSettings, MASK, renderConfigurationDoc } from "./render.js";
export {
  booleanSetting,
  defaultOf,
  deprecationWarning,
  describeSource,
  type FlagValue,
  PROCESSES,
  type Process,
  type ResolvedSettings,
  rawSettings,
  readSetting,
  resolveSettings,
  type Setting,
  type SettingSource,
  SettingsError,
  schemaOf,
  setting,
  settingsOf,
} from "./setting.js";
