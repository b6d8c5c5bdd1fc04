/** The value an exposure names a variation by: its `id`, or its 1-based position in the list (`index` is 0-based). */
export function variationId(variation: { id?: string | undefined }, index: number): string {
  return variation.id ?? String(index + 1);
}
