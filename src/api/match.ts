/**
 * How setup-audit reads the service's elements, whose shape is not published: the field names
 * that a fact may stand under (the API schemas normalise with them, and messages name them), and
 * the matching of project elements on whichever identifying field they carry. Pure, shared by
 * the API gatherer and the checks.
 */

/** The fields a project element may name its workspace in, on itself or on an object it nests. */
export const WORKSPACE_FIELDS = ["workspace", "workspaceName", "workspaceId"] as const;

/** The fields of a goal's condition object that may name its event, first found wins. */
export const CONDITION_FIELDS = ["equals", "value", "event"] as const;

/** The fields a report's variation may give its visitors in, first found wins. */
export const VISITOR_FIELDS = ["visitors", "users", "participants"] as const;

/** The fields a report's variation may give its planned share of the traffic in, first found wins. */
export const SPLIT_FIELDS = ["weight", "split", "traffic", "allocation", "percentage"] as const;

/** What identifies an environment's project: its key and its domain. */
export interface ProjectWanted {
  /** The environment's project key at the service (`projectKey`, else `key`). */
  key: string;
  /** Lower-case host name. */
  domain: string;
}

/** The service's key of an environment's project: `projectKey` when the page's SDK key is a vendor's, else `key`. */
export function serviceProjectKey(env: { key: string; projectKey?: string | undefined }): string {
  return env.projectKey ?? env.key;
}

/** What names an environment's project in the service's list: its key at the service, and the domain the plan (or `init`) gave it. */
export function wantedProject(env: { key: string; projectKey?: string | undefined }, domain: string): ProjectWanted {
  return { key: serviceProjectKey(env), domain };
}

/** A value of a project element that may name the environment's project, and the field it stood in. */
export interface ProjectIdentifier {
  /** The service's field, like `projectKey` or `domains`. */
  field: string;
  /** Its value, as text (one per item of a list). */
  value: string;
}

/** A project element that names the environment, and which of its fields did. */
export interface ProjectMatch<P> {
  /** The element as the service listed it. */
  element: P;
  /** Position in the service's list. */
  index: number;
  /** The field that matched, like `projectKey` or `domains`. */
  field: string;
  /** True when the field held the key; false when it held the domain. */
  byKey: boolean;
}

/** What the matching reads of an element: its identifying values, in the order they are tried. */
interface Identified {
  identifiers: readonly ProjectIdentifier[];
}

/**
 * The element that names the environment: one holding the key wins over one holding only the
 * domain (a domain may host several projects); among equals, the first listed. Null when none.
 */
export function findProject<P extends Identified>(
  elements: readonly P[],
  wanted: ProjectWanted,
): ProjectMatch<P> | null {
  const matches = matchingProjects(elements, wanted);
  return matches.find((match) => match.byKey) ?? matches[0] ?? null;
}

/** Every element that names the key or the domain, with the first field that does. */
export function matchingProjects<P extends Identified>(
  elements: readonly P[],
  wanted: ProjectWanted,
): ProjectMatch<P>[] {
  return elements.flatMap((element, index) => {
    const byKey = element.identifiers.find(({ value }) => value === wanted.key);
    const byDomain = element.identifiers.find(({ value }) => hostOf(value) === wanted.domain);
    const found = byKey ?? byDomain;
    return found ? [{ element, index, field: found.field, byKey: byKey !== undefined }] : [];
  });
}

/** The lower-case host of `example.com`, `Example.com.`, `example.com:8080` or `https://example.com/x`. */
export function hostOf(value: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  return URL.canParse(withScheme) ? new URL(withScheme).hostname.toLowerCase().replace(/\.$/, "") : value.toLowerCase();
}

/** A workspace as an element names it; either part may be unknown. */
export interface WorkspaceNamed {
  /** The workspace's id, as text. */
  id: string | null;
  /** The workspace's name. */
  name: string | null;
  /** Where it was found, in the service's field names, like `workspace` or `settings.workspace`. */
  field: string;
}

/** True when the named workspace is `wanted`, by name or by id; a bare string counts as either. */
export function isWorkspace(named: WorkspaceNamed, wanted: string): boolean {
  return named.name === wanted || named.id === wanted;
}
