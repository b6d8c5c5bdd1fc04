import { FIXTURE_PORTS, startFixtures, type FixtureServer } from "../../fixtures/server.js";
import { CliError, EXIT } from "./errors.js";
import { unreachableReason } from "./reachability.js";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
const PORTS = new Set<string>(Object.values(FIXTURE_PORTS).map(String));

/** True when a URL points at the bundled mock service or one of its demo sites. */
export function pointsAtFixtures(url: string): boolean {
  const { hostname, port } = new URL(url);
  return LOOPBACK.has(hostname) && PORTS.has(port);
}

/**
 * Starts the bundled mock service and demo sites when a spec points at them and they are not
 * already running; null when nothing had to be started.
 */
export async function startFixturesIfNeeded(urls: readonly string[]): Promise<FixtureServer | null> {
  if (!urls.some(pointsAtFixtures)) return null;
  const health = `http://127.0.0.1:${FIXTURE_PORTS.service}/__fixture/health`;
  if ((await unreachableReason(health, 2000)) === null) return null;
  try {
    const server = await startFixtures();
    process.stdout.write(`Started the bundled mock service at ${server.urls.service} (demo shop ${server.urls.demoShop}, broken shop ${server.urls.brokenShop}, vendor SDK pages ${server.urls.vendors}).\n`);
    return server;
  } catch (error) {
    throw new CliError(
      EXIT.couldNotRun,
      `Could not start the bundled mock service: ${(error as Error).message}`,
      `Free the ports ${[...PORTS].join(", ")}, or start it yourself with \`npm run fixtures\`.`,
    );
  }
}
