import { isWorkspace, WORKSPACE_FIELDS } from "../../api/match.js";
import type { Judgement } from "../../findings/finding.js";
import { capitalised, nearMisses, orJoined, orList } from "../../text/wording.js";
import { defineCheck, specWideFinding } from "../check.js";
import { matchedProject, projectLabel } from "./answers.js";

/** api.workspace: the listed project belongs to the spec's workspace, by name or id. */
export const apiWorkspace = defineCheck({
  id: "api.workspace",
  scope: "run",
  title: "The project is in the spec's workspace",
  failureTitle: "The project belongs to another workspace",
  family: "API",
  severity: "critical",
  failsWhen: "the listed project names another workspace (by name and id); **skip** when the element names none",
  why:
    "Experiments, goals and reports live in a workspace: a project in the wrong one is audited, " +
    "configured and read by the wrong team.",
  requires: ["api"],
  evaluate(context): Judgement[] {
    const found = matchedProject(context);
    if ("skip" in found) return specWideFinding(context, { status: "skip", message: found.skip });
    const named = found.match.element.workspace;
    const label = projectLabel(found.match);
    if (named === null) {
      return specWideFinding(context, {
        status: "skip",
        message: `Not judged: the service's element for ${label} names no workspace (no ${orJoined(WORKSPACE_FIELDS)} field, nor one nested), so the workspace cannot be checked.`,
      });
    }
    const wanted = context.spec.workspace;
    const evidence = { workspace: wanted, listed: { id: named.id, name: named.name }, field: named.field };
    if (isWorkspace(named, wanted)) {
      return specWideFinding(context, {
        status: "pass",
        message: `${capitalised(label)} is in workspace "${wanted}".`,
        evidence,
      });
    }
    const shown = [named.name === null ? null : `"${named.name}"`, named.id === null ? null : `id ${named.id}`]
      .filter(Boolean)
      .join(", ");
    const close = nearMisses(
      wanted,
      [named.name, named.id].filter((value): value is string => value !== null),
    );
    const hint = close.length > 0 ? ` — did you mean ${orList(close)}?` : ".";
    return specWideFinding(context, {
      status: "fail",
      message: `${capitalised(label)} belongs to workspace ${shown} in the service, not "${wanted}"${hint} Fix the spec's workspace, or move the project to the right workspace.`,
      evidence,
    });
  },
});
