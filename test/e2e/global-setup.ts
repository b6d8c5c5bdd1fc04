import { FIXTURE_PORTS, startFixtures } from "../../fixtures/server.js";

/**
 * One bundled mock service for every end-to-end test, on its default ports: the CLI runs in the
 * tests find it up and use it instead of each starting (and stopping) their own. One already
 * running (`npm run fixtures`) is used as it is.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const health = await fetch(`http://127.0.0.1:${FIXTURE_PORTS.service}/__fixture/health`).catch(() => null);
  if (health?.ok) return async () => undefined;
  const server = await startFixtures({ ports: FIXTURE_PORTS });
  return () => server.close();
}
