/**
 * A check's name: its line up to the first ": " (validators write `<name>: <detail>` into a
 * report's `checks_passed` / `checks_failed`, and the detail may differ from one run to the
 * next while the check is the same). Task health and the assertion hygiene both group by it.
 * Pure.
 */
export function checkName(line: string): string {
  const i = line.indexOf(": ");
  return i < 0 ? line : line.slice(0, i);
}
