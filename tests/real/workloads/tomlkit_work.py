"""tomlkit workload: parse generated pyproject-like TOML documents (tables, arrays of
tables, inline tables, multi-line arrays, strings of every kind, dates, comments), read
and edit values in place, serialise back with dumps (style-preserving round trip), and
build a document from scratch with the item API. Deterministic; prints a CRC32."""

import zlib

import tomlkit


def document(i):
    deps = ",\n".join(f'    "pkg{k}>={k}.{i % 7}",  # dep {k}' for k in range(8))
    tables = "\n".join(
        f'''[[tool.bench.case]]
name = "case-{i}-{k}"
weight = {k * 0.5 + i}
tags = ["a", "b{k}", 'lit{k}']
point = {{ x = {k}, y = {i}, label = "p{k}" }}
when = 2024-0{k % 9 + 1}-1{k % 9}T12:3{k % 6}:00Z
'''
        for k in range(6)
    )
    return f'''# generated project {i}
[project]
name = "project-{i}"
version = "{i}.{i % 3}.0"
description = """
A multi-line
description for {i}."""
readme = 'README.md'
requires-python = ">=3.8"
authors = [{{ name = "Author {i}", email = "a{i}@example.org" }}]
dependencies = [
{deps}
]

[project.optional-dependencies]
test = ["pytest>=7", "coverage[toml]"]   # trailing comment

[tool.bench]
enabled = true
ratio = {i}.25
count = 0x{i + 16:x}
big = 1_000_{i:03d}
path = 'C:\\Users\\bench\\{i}'
escaped = "tab\\tnew\\nline \\u00e9"
birthday = 1979-05-27
at = 07:32:00

{tables}
[tool.bench.nested.deep.table]
key = "value {i}"
"quoted key" = {i}
'''


DOCS = [document(i) for i in range(20)]

crc = 0
total = 0
for rnd in range(5):
    for i, text in enumerate(DOCS):
        doc = tomlkit.parse(text)
        project = doc["project"]
        project["version"] = f"{i}.{rnd}.1"
        project["dependencies"].append(f"extra{rnd}>=1")
        bench = doc["tool"]["bench"]
        bench["count"] = int(bench["count"]) + 1
        total += sum(len(c["tags"]) for c in bench["case"])
        bench["case"][0]["point"]["z"] = rnd
        out = tomlkit.dumps(doc)
        crc = zlib.crc32(out.encode(), crc)
        plain = doc.unwrap()
        total += len(plain["project"]["dependencies"])

        built = tomlkit.document()
        built.add(tomlkit.comment(f"built {i}"))
        tab = tomlkit.table()
        for k in range(10):
            tab.add(f"key{k}", k * i)
            tab.add(f"name{k}", f"n{k}")
        arr = tomlkit.array()
        arr.extend(range(i, i + 10))
        tab.add("values", arr)
        built.add("section", tab)
        out = tomlkit.dumps(built)
        crc = zlib.crc32(out.encode(), crc)
print(f"tomlkit: {total} tags, crc {crc:08x}")
