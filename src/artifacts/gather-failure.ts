/**
 * Where the gather phase notes why a page × viewport left no artifacts: beside the file that never
 * came (its test crashed, threw or timed out). The progress reporter writes the reason, already
 * scrubbed of secrets; the CLI reads it into the page's `page.load` finding, so that a report read
 * later says what happened without the run's output.
 */
export function gatherFailureFileOf(artifactsFile: string): string {
  return `${artifactsFile}.failed.txt`;
}
