import type { JudgedPage } from "../../artifacts/delivery.js";
import { pageSpecOf, type CheckContext } from "../check.js";

/** The page units with consent artifacts: the pages as they are, when the spec has `consent`. */
export function consentPages(context: CheckContext): JudgedPage[] {
  return context.pages.filter((page) => page.consent !== undefined && page.consent.unit === "page");
}

/** The page's path as the spec names it, for messages. */
export function pathOf(context: CheckContext, page: JudgedPage): string {
  return pageSpecOf(context, page.page)?.path ?? page.page;
}
