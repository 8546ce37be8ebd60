#!/usr/bin/python3
"""Every shipped case file is valid under the JSON Schema `aerun schema` prints, checked with a real
validator (Debian's python3-jsonschema, draft 2020-12), names the schema for editors on its
`# yaml-language-server: $schema=...` line, and cases the loader refuses for a key or a type are
invalid under the schema too.
Usage: tests/schema_test.py AERUN CASES_DIR BAD_CASES_DIR SCHEMA_FILE"""
import json, pathlib, subprocess, sys
import jsonschema, yaml

aerun, cases_dir, bad_dir, schema_file = sys.argv[1:5]
printed = subprocess.run([aerun, "schema"], check=True, capture_output=True, text=True).stdout
schema = json.loads(printed)
if schema != json.load(open(schema_file)):
    sys.exit(f"FAIL: `aerun schema` is not {schema_file}")
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failures = []
cases = sorted(pathlib.Path(cases_dir).rglob("*.yaml"))
for path in cases:
    text = path.read_text()
    first = text.splitlines()[0] if text else ""
    prefix = "# yaml-language-server: $schema="
    if not first.startswith(prefix):
        failures.append(f"{path}: the first line is not '{prefix}...'")
    elif (path.parent / first[len(prefix):]).resolve() != pathlib.Path(schema_file).resolve():
        failures.append(f"{path}: its $schema line does not lead to {schema_file}")
    errors = list(validator.iter_errors(yaml.safe_load(text)))
    for e in errors:
        failures.append(f"{path}: {'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}")
bad = sorted(pathlib.Path(bad_dir).glob("*.yaml"))
for path in bad:
    if not list(validator.iter_errors(yaml.safe_load(path.read_text()))):
        failures.append(f"{path}: the loader refuses it but the schema accepts it")
if len(cases) < 15 or len(bad) < 5:
    failures.append(f"too few files: {len(cases)} cases, {len(bad)} bad ones")
for f in failures:
    print("FAIL:", f)
print(f"{len(cases)} shipped cases valid, {len(bad)} bad cases invalid" if not failures else "")
sys.exit(1 if failures else 0)
