/** Escaping for text placed inside an HTML document. Pure. */

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const SCRIPT_UNSAFE = /[<>&\u2028\u2029]/g;
const SCRIPT_ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * JSON for a `<script type="application/json">` element: `<`, `>`, `&` and the line
 * separators U+2028/U+2029 become \u escapes, so no `</script>` or `<!--` can end the element.
 */
export function jsonForScript(value: unknown): string {
  return scriptSafe(JSON.stringify(value));
}

/**
 * JSON text made safe for a `<script type="application/json">` element (as jsonForScript). Each
 * character maps on its own, so the pieces of a JSON text escaped one by one give the same bytes
 * as the whole text escaped at once.
 */
export function scriptSafe(json: string): string {
  // One scan for the five characters (each maps on its own, so this equals five replaces).
  return json.replace(SCRIPT_UNSAFE, (c) => SCRIPT_ESCAPES[c] ?? c);
}

/** JavaScript source for an inline `<script>`: a `</script` or `<!--` inside it would end or confuse the element. */
export function inlineScript(source: string): string {
  return source.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/** CSS for an inline `<style>`. */
export function inlineStyle(source: string): string {
  return source.replace(/<\/(style)/gi, "<\\/$1");
}
