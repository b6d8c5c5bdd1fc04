import { apiAuth } from "./auth.js";
import { apiGoals } from "./goals.js";
import { apiProject } from "./project.js";
import { apiWorkspace } from "./workspace.js";

/**
 * The API checks: the service's own view of the project, read once per spec × environment.
 * Each needs the API's answers (without an `api` section the runner skips it, saying so) and gives
 * one finding per spec × environment; when an earlier API step failed, the later checks skip and
 * point at the check that reports it, so one cause is reported once.
 */

/** The `api.*` checks, in the order the report shows them. */
export const API_CHECKS = [apiAuth, apiProject, apiWorkspace, apiGoals] as const;
