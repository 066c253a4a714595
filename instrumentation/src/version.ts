/** npm name of this package; also the instrumentation scope name of its tracer. */
export const PACKAGE_NAME = "@ragmeter/instrumentation";
/** Version of this package (kept equal to package.json by a unit test). */
export const PACKAGE_VERSION = "0.1.0";
