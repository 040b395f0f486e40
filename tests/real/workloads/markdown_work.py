"""Python-Markdown workload: render a set of generated documents (headings, nested lists,
emphasis, links, inline code, fenced code, tables, footnotes, definition lists,
abbreviations, attribute lists) to HTML with the extensions a documentation site uses,
reusing one Markdown instance the way a static-site generator does. Deterministic; prints
a CRC32 of all HTML produced."""

import zlib

import markdown

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi "
         "omicron pi rho sigma tau upsilon phi chi psi omega").split()


def words(i, n):
    return " ".join(WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(n))


def document(i):
    out = [f"# Chapter {i}: {words(i, 3).title()}", ""]
    for s in range(4):
        out += [f"## Section {i}.{s} {{#sec-{i}-{s}}}", ""]
        out.append(
            f"The *{words(i + s, 1)}* module provides **{words(i + s, 2)}** helpers; "
            f"call `{WORDS[s]}_{i}()` before [the guide](https://example.org/{i}/{s} "
            f"\"Guide {s}\") and see the HTML spec[^n{i}{s}]. Lines &amp; ampersands, "
            f"<span>inline html</span> and an auto link <https://example.com/p{i}>."
        )
        out.append("")
        for k in range(4):
            out.append(f"- item {k}: {words(i + k, 4)} with _emphasis_ and `code {k}`")
            if k % 2:
                out.append(f"    1. nested {words(k, 2)}")
                out.append(f"    2. nested **bold {k}**")
        out.append("")
        out += ["```python", f"def f_{i}_{s}(x):",
                f"    return x * {s} + {i}  # {words(s, 2)}", "```", ""]
        out += ["| name | value | note |", "|:-----|------:|:----:|"]
        for r in range(4):
            out.append(f"| {WORDS[r]} | {i * r + s} | {words(r + s, 2)} |")
        out += ["", f"{WORDS[s].title()} term", f":   Definition of {words(i, 5)}.", ""]
        out += [f"> A quote about {words(i * s, 6)}", "> on two lines.", ""]
        out += [f"[^n{i}{s}]: Footnote {i}.{s} about {words(s, 3)}.", ""]
    out += ["*[HTML]: Hyper Text Markup Language", ""]
    out.append("Paragraph with HTML and a {: .cls } attr list.")
    return "\n".join(out)


DOCS = [document(i) for i in range(24)]
md = markdown.Markdown(extensions=[
    "tables", "fenced_code", "footnotes", "def_list", "abbr", "attr_list", "toc",
    "sane_lists", "smarty",
])

crc = 0
total = 0
for rnd in range(2):
    for doc in DOCS:
        html = md.reset().convert(doc)
        total += len(html)
        crc = zlib.crc32(html.encode(), crc)
print(f"markdown: {len(DOCS) * 2} docs, {total} chars, crc {crc:08x}")
