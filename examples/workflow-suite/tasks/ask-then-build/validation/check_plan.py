"""Validator: the plan is where the user said (notes/plan.md) and has the plan-first shape."""
import json
import pathlib
import re

passed, failed = [], []
plan = pathlib.Path("notes/plan.md")
if plan.is_file():
    passed.append("plan_location: notes/plan.md (the name the user confirmed)")
    text = plan.read_text()
    steps = re.findall(r"^\d+\. ", text, re.M)
    if text.startswith("# Plan:") and len(steps) >= 3 and "--verbose" in text:
        passed.append(f"plan_content: title, {len(steps)} numbered steps, mentions --verbose")
    else:
        failed.append(f"plan_content: expected '# Plan:' title, >= 3 numbered steps and --verbose; got {len(steps)} steps")
else:
    others = sorted(str(p) for p in pathlib.Path(".").rglob("*.md") if ".claude" not in p.parts)
    failed.append(f"plan_location: notes/plan.md missing (markdown files: {', '.join(others) or 'none'})")
    failed.append("plan_content: no plan at notes/plan.md")

print(json.dumps({"passed": passed, "failed": failed}))
