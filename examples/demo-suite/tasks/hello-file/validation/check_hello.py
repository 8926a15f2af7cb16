"""Validator: hello.txt holds exactly the house greeting."""
import json
import pathlib

passed, failed = [], []
text = pathlib.Path("hello.txt").read_text() if pathlib.Path("hello.txt").exists() else None
if text is None:
    failed.append("hello_exists: hello.txt missing")
else:
    passed.append("hello_exists")
    if text == "Hello, skillbench!\n":
        passed.append("hello_exact: greeting matches the house style")
    else:
        failed.append(f"hello_exact: expected 'Hello, skillbench!\\n', got {text!r}")

pathlib.Path("_test_results.json").write_text(json.dumps({"passed": passed, "failed": failed}))
print(json.dumps({"passed": passed, "failed": failed}))
