import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/**
 * Every text file under `dir`, with the data files the single-file report embeds as base64
 * decoded: where a secret that reached an output would show.
 */
export function textsUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile() && !file.endsWith(".png"))
    .flatMap((file) => {
      const text = readFileSync(file, "utf8");
      const embedded = [...text.matchAll(/\bd\("([^"]+)","([A-Za-z0-9+/=]*)"\)/g)]
        .filter(([, name]) => !name!.endsWith(".png"))
        .map(([, name, base64]) => ({
          file: `${file} → ${name}`,
          text: Buffer.from(base64!, "base64").toString("utf8"),
        }));
      return [{ file, text }, ...embedded];
    });
}
