/**
 * Text a page controls (event names, messages, URLs, console lines) made inert for the chats that
 * render a Slack-compatible message: Slack's mrkdwn, Mattermost's Markdown and Discord's, through
 * its `/slack` endpoint. It can neither mention, nor link, nor load an image, nor open a code span,
 * and still reads as the page wrote it:
 *
 * - line breaks become spaces: page text never starts a line of its own (a quote, a heading, a
 *   list item, a Markdown link definition);
 * - `&`, `<` and `>` become `&amp;`, `&lt;` and `&gt;`, as Slack requires of text (no `<url|text>`
 *   link, no `<!channel>` or `<@U…>` mention, no `<url>` autolink); Slack, and Mattermost's
 *   CommonMark, show the characters. A word joiner follows each `&lt;`, so that a chat that turned
 *   entities back into `<` before reading its own `<…>` syntax would still find none;
 * - a word joiner (U+2060, zero-width and invisible) goes after each `[`, `]`, `!` and `@`: no
 *   `[text](url)` link, no `![](url)` image, no `@channel`, `@here`, `@everyone` or `@user` mention;
 *   and inside `://` and after `www`, so that no chat turns a URL into a link (Slack may still link
 *   a bare domain, showing it as it is: nothing disguised);
 * - a backtick becomes `ˋ` (U+02CB, the modifier grave accent, which looks the same): no word
 *   joiner keeps backticks from pairing into a code span.
 *
 * Backslash escapes would do for Markdown, but Slack shows the backslashes. Emphasis (`*`, `_`,
 * `~`) is left as it is: it cannot mention, link or load anything, and event names such as
 * `signup_success` must read, and copy, exactly.
 */
export function inertChatText(text: string): string {
  return text
    .replace(/\r\n?|\n/g, " ")
    .replace(/&/g, "&amp;")
    .replace(/</g, `&lt;${WORD_JOINER}`)
    .replace(/>/g, "&gt;")
    .replace(/[[\]!@]/g, `$&${WORD_JOINER}`)
    .replace(/:\/\//g, `:${WORD_JOINER}//`)
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}${WORD_JOINER}.`)
    .replace(/`/g, "ˋ");
}

/** U+2060: zero-width, invisible, and no line break on either side. */
const WORD_JOINER = "\u2060";
