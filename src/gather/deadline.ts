/**
 * `work`, or a rejection with `message` once `ms` have passed: for a Chromium call that may never
 * answer (a capture of a page that navigates meanwhile can wait forever), so that one page's hang
 * costs seconds, not the unit's whole time limit.
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
