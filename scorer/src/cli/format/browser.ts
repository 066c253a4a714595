import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { RagmeterError, readSetting, SETTINGS } from "@ragmeter/runtime";
import type { BrowserContext, Page } from "playwright-core";

/** Raised when no Chromium executable is found (configuration error, exit 2). */
export class BrowserMissingError extends RagmeterError {
  override readonly name = "BrowserMissingError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, { code: "environment", cause: options?.cause });
  }
}

/** Flags for a headless Chromium that reaches nothing outside the machine. */
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"] as const;

/**
 * The Chromium executable: `RAGMETER_CHROMIUM` when set, else the first of `chromium`,
 * `chromium-browser`, `google-chrome` found on PATH (Debian's `chromium` is /usr/bin/chromium).
 * @throws BrowserMissingError naming what to install.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = readSetting(SETTINGS.RAGMETER_CHROMIUM, env);
  if (explicit) {
    if (!existsSync(explicit)) throw new BrowserMissingError(`RAGMETER_CHROMIUM=${explicit} does not exist`);
    return explicit;
  }
  for (const dir of (env["PATH"] ?? "/usr/bin").split(path.delimiter)) {
    for (const name of ["chromium", "chromium-browser", "google-chrome"]) {
      const p = path.join(dir, name);
      if (existsSync(p)) return p;
    }
  }
  throw new BrowserMissingError("no Chromium found for --png: install it (Debian: apt-get install chromium) or set RAGMETER_CHROMIUM to its path");
}

/** What `report --png` says when the browser driver is not installed (an optional peer of the package). */
export const DRIVER_MISSING =
  "report --png needs the browser driver playwright-core, which is not installed: npm i -D playwright-core (and a Chromium: apt-get install chromium, or RAGMETER_CHROMIUM)";

/**
 * playwright-core, loaded only for --png and tests (not on every CLI start). It is an optional peer
 * dependency of the published package: a team that wants PNGs installs it.
 * @throws BrowserMissingError ({@link DRIVER_MISSING}) when it is not installed.
 */
async function loadPlaywright(): Promise<typeof import("playwright-core")> {
  try {
    return await import("playwright-core");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if ((e.code === "ERR_MODULE_NOT_FOUND" || e.code === "MODULE_NOT_FOUND") && /playwright-core/u.test(e.message)) throw new BrowserMissingError(DRIVER_MISSING);
    throw err;
  }
}

/**
 * Opens `htmlFile` in a headless Chromium (fresh profile directory, removed afterwards), waits until
 * the report's charts are drawn, runs `fn` with the page and closes everything.
 * @throws BrowserMissingError; playwright's errors when the page does not render within 30 s.
 */
export async function withReportPage<T>(htmlFile: string, fn: (page: Page) => Promise<T>, env: NodeJS.ProcessEnv = process.env): Promise<T> {
  const { chromium } = await loadPlaywright();
  const executablePath = findChromium(env);
  const profile = await mkdtemp(path.join(tmpdir(), "ragmeter-chromium-"));
  let context: BrowserContext | null = null;
  try {
    // the fresh profile is Chromium's --user-data-dir (playwright passes it for a persistent context)
    context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: [...CHROMIUM_ARGS],
      timeout: 60_000,
      viewport: { width: 1280, height: 900 },
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    await page.goto(pathToFileURL(path.resolve(htmlFile)).href);
    await page.waitForFunction("document.documentElement.dataset.chartsReady !== undefined", undefined, { timeout: 30_000 });
    return await fn(page);
  } finally {
    await context?.close();
    await rm(profile, { recursive: true, force: true });
  }
}

/**
 * Writes a PNG of the report's trend chart (`#chart-trend`) to `pngFile`.
 * @throws BrowserMissingError; playwright's errors.
 */
export async function screenshotTrend(htmlFile: string, pngFile: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await withReportPage(
    htmlFile,
    async (page) => {
      await page.locator("#chart-trend").screenshot({ path: pngFile });
    },
    env,
  );
}
