import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { buildReport, REPORT_PATHS, type ReportBuild } from "../report/html.js";
import { CliError, EXIT } from "../runner/errors.js";

/** Options of `setup-audit report` (and of the report `run` builds at its end). */
export interface ReportOptions {
  /** The run's output folder, as the user typed it. */
  out: string;
  /** Also write the self-contained `audit-report.html`. */
  singleFile: boolean;
  /** Open the single file in the desktop's browser. */
  open: boolean;
}

/** `setup-audit report`: builds the HTML report from the last run's results in `--out`. */
export async function reportCommand(options: ReportOptions): Promise<number> {
  const resultsDir = join(options.out, REPORT_PATHS.results);
  const hasResults = existsSync(resultsDir) && readdirSync(resultsDir).some((name) => name.endsWith("-result.json"));
  if (!hasResults) {
    throw new CliError(
      EXIT.invalid,
      `No audit results in ${resultsDir}.`,
      `Run \`setup-audit run --out ${options.out}\` first, or point --out at the folder a run wrote.`,
    );
  }
  await publishReport(options);
  return EXIT.ok;
}

/**
 * Builds the report, prints where it is and how to open or share it, and opens it when asked.
 * `--open` implies the single file: the folder report only works when a web server serves it.
 */
export async function publishReport(options: ReportOptions): Promise<ReportBuild> {
  const singleFile = options.singleFile || options.open;
  let build: ReportBuild;
  try {
    build = await buildReport(resolve(options.out), { singleFile });
  } catch (error) {
    throw new CliError(
      EXIT.couldNotRun,
      `Could not build the HTML report: ${(error as Error).message}`,
      `The results are still in ${join(options.out, REPORT_PATHS.results)}; run \`setup-audit report --out ${options.out}\` again once fixed.`,
    );
  }
  // Paths as the user typed --out, like the rest of the CLI's output.
  const htmlDir = join(options.out, REPORT_PATHS.html);
  const history = build.rebuilt ? "this run's entry replaced" : "this run added";
  process.stdout.write(
    `\nReport: ${htmlDir}/ — serve it (e.g. \`npx allure open ${htmlDir}\`) or publish it as CI pages.\n` +
      `History: ${build.historyRuns} run(s) in ${join(options.out, REPORT_PATHS.history)} (${history}); keep this file between nightly runs for trends.\n`,
  );
  if (build.singleFile === null) {
    process.stdout.write(
      `Shareable file: run \`setup-audit report --out ${options.out} --single-file --open\` to write ${join(options.out, REPORT_PATHS.singleFile)}.\n`,
    );
    return build;
  }
  const megabytes = ((build.singleFileBytes ?? 0) / 1024 / 1024).toFixed(1);
  process.stdout.write(
    `Shareable file: ${join(options.out, REPORT_PATHS.singleFile)} (${megabytes} MB) — opens offline in any browser; send it as it is.\n`,
  );
  if (options.open) process.stdout.write(`${await openOnDesktop(build.singleFile)}\n`);
  return build;
}

/**
 * Opens a file with the desktop's default browser; says so instead when there is no desktop. Never
 * throws: a report that could not be opened is still built.
 */
export function openOnDesktop(
  file: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Promise<string> {
  const opener = desktopOpener(platform, env);
  if (opener === null)
    return Promise.resolve(`No desktop to open it on here (no DISPLAY or WAYLAND_DISPLAY): open ${file} in a browser.`);
  return new Promise((resolveMessage) => {
    const child = spawn(opener.command, [...opener.args, file], { detached: true, stdio: "ignore" });
    child.on("error", (error) =>
      resolveMessage(`Could not run ${opener.command} (${error.message}): open ${file} in a browser.`),
    );
    child.on("spawn", () => {
      child.unref();
      resolveMessage(`Opened ${file} with ${opener.command}.`);
    });
  });
}

function desktopOpener(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): { command: string; args: string[] } | null {
  if (platform === "darwin") return { command: "open", args: [] };
  // `start` is a cmd built-in; its first quoted argument is a window title, hence the empty one.
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", ""] };
  return env.DISPLAY || env.WAYLAND_DISPLAY ? { command: "xdg-open", args: [] } : null;
}
