"""Validator for comet-change.

Business check (every treatment): export.export_csv works on the sales table.
Workflow check (named openspec_artifacts, so skillbench files it under workflow_completion;
dropped for CONTROL, the business-only baseline): the change's proposal, design and tasks exist.
"""
import json
import os
import pathlib
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.getcwd())
passed, failed = [], []

try:
    from export import export_csv
    from sales import SALES

    lines = export_csv(SALES).splitlines()
    quoted = export_csv([{"name": "a,b"}]).splitlines()
    if lines == ["region,amount", "north,120", "south,80"] and quoted == ["name", '"a,b"']:
        passed.append("csv_export: header and one line per row, commas quoted")
    else:
        failed.append(f"csv_export: unexpected output {lines!r} / {quoted!r}")
except Exception as e:  # noqa: BLE001 - any failure is a failed check
    failed.append(f"csv_export: {type(e).__name__}: {e}")

change = "add-csv-export"
dirs = [pathlib.Path("openspec/changes/archive") / change, pathlib.Path("openspec/changes") / change]
found = next((d for d in dirs if d.is_dir()), None)
need = ["proposal.md", "design.md", "tasks.md"]
if found is not None and all((found / f).is_file() for f in need):
    passed.append(f"openspec_artifacts: proposal, design and tasks in {found}")
else:
    where = str(found) if found is not None else "no change folder"
    failed.append(f"openspec_artifacts: missing {', '.join(f for f in need if found is None or not (found / f).is_file())} ({where})")

print(json.dumps({"passed": passed, "failed": failed}))
