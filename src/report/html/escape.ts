/** Escaping for text placed inside an HTML document. Pure. */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>`, `&` and the line
 * separators U+2028/U+2029 become \u escapes, so no `</script>` or `<!--` can end the element.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** JavaScript source for an inline `<script>`: a `</script` or `<!--` inside it would end or confuse the element. */
export function inlineScript(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/** CSS for an inline `<style>`. */
export function inlineStyle(source: string): string {
  return source.replace(/<\/(style)/gi, "<\\/$1");
}
