#!/usr/bin/env python3
"""Writes fuzz/corpus/cql/: each distinct statement of tests/cql/*.cql as one
seed, plus a few multi-statement scripts. Usage: fuzz/cql_seeds.py [REPO_DIR]"""
import hashlib
import pathlib
import sys

repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent)
out = repo / "fuzz" / "corpus" / "cql"
out.mkdir(parents=True, exist_ok=True)

statements = {}
scripts = []
for path in sorted((repo / "tests" / "cql").glob("*.cql")):
    current = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not current and (not line.strip() or line.lstrip().startswith("--")):
            continue
        current.append(line)
        if line.rstrip().endswith(";"):
            stmt = "\n".join(current).strip()
            statements.setdefault(stmt, path.stem)
            current = []
    text = path.read_text(encoding="utf-8")
    if len(text) <= 2048:
        scripts.append((path.stem, text))

for stmt, stem in statements.items():
    digest = hashlib.sha1(stmt.encode()).hexdigest()[:10]
    (out / f"{stem}_{digest}").write_text(stmt, encoding="utf-8")
for stem, text in scripts[:8]:
    (out / f"script_{stem}").write_text(text, encoding="utf-8")
print(f"{len(statements)} statements, {min(len(scripts), 8)} scripts")
