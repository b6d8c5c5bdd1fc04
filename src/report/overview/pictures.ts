import { html, type Markup } from "./markup.js";

/** One experiment's pictures on one viewport, as its Allure result carries them. */
export interface ExperimentPictures {
  /** The result's title: `Pricing CTA copy · variations · desktop`. */
  title: string;
  /** The spec × environment: `Demo shop (staging)`. */
  target: string;
  /** The side-by-side picture and each variation's filmstrip, in the result's order. */
  images: { caption: string; png: Buffer }[];
}

/** Each experiment's pictures, inline (the report travels as one file); nothing when the run had none. */
export function experimentPictures(pictures: readonly ExperimentPictures[]): Markup | null {
  if (pictures.length === 0) return null;
  return html`<section class="sa-section"><h2>Experiments: the control and its variations</h2>${pictures.map(
    (experiment) =>
      html`<article class="sa-pictures"><h3>${experiment.title} — ${experiment.target}</h3>${experiment.images.map(
        (image) =>
          html`<figure><img src="${`data:image/png;base64,${image.png.toString("base64")}`}" alt="${`${experiment.title}: ${image.caption}`}"><figcaption>${image.caption}</figcaption></figure>`,
      )}</article>`,
  )}</section>`;
}
