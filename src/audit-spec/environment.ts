import type { AuditSpec, Environment } from "./schema.js";

/** The spec's environment `name`; throws when the spec has none (a run's targets name only environments their spec has). */
export function environmentOf(spec: AuditSpec, name: string): Environment {
  const env = spec.environments[name];
  if (!env) throw new Error(`the spec has no environment "${name}"`);
  return env;
}
