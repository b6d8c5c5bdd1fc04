import { EXIT } from "../runner/errors.js";
import { loadValidSpecs } from "./specs.js";

/** `setup-audit validate`: checks the specs without auditing anything. */
export async function validateSpecs(files: readonly string[]): Promise<number> {
  const specs = await loadValidSpecs(files);
  for (const { file, spec } of specs) {
    process.stdout.write(
      `✓ ${file}: ${spec.project}, ${Object.keys(spec.environments).length} environment(s), ${spec.pages.length} page(s)\n`,
    );
  }
  return EXIT.ok;
}
