import { startFixturesUnlessRunning } from "../../fixtures/server.js";

/**
 * One set of fixtures for every end-to-end test, on their default ports, the vendor SDK site
 * among them: the CLI never starts them, and the specs the tests audit point at these ports. One
 * already running (`npm run fixtures`) is used as it is.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const server = await startFixturesUnlessRunning();
  return async () => {
    await server?.close();
  };
}
