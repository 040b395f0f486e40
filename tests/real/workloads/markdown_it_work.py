"""markdown-it-py workload: render generated CommonMark documents (headings, nested and
ordered lists, emphasis, links and reference definitions, images, inline code, fenced and
indented code, block quotes, HTML blocks, entities, GFM tables and strikethrough) to HTML
and to a token stream, with one MarkdownIt instance reused as a docs builder does.
Deterministic; prints a CRC32 of all output."""

import zlib

from markdown_it import MarkdownIt

WORDS = ("lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor "
         "incididunt ut labore et dolore magna aliqua").split()


def words(i, n):
    return " ".join(WORDS[(i * 5 + k * 3) % len(WORDS)] for k in range(n))


def document(i):
    out = [f"# Title {i} — {words(i, 3)}", "", f"{words(i, 2).title()}", "=" * 12, ""]
    for s in range(5):
        out += [f"## Part {s} *of* {i}", ""]
        out.append(f"Some *{words(i + s, 2)}* and **{words(s, 2)}**, `code_{s}()`, "
                   f"a [link][ref{s}] and [inline](https://example.org/{i}/{s} \"t\") plus "
                   f"![img {s}](/img/{s}.png) &amp; &copy; ~~struck {s}~~ <em>raw</em>  ")
        out.append(f"hard break then {words(i * s, 8)}\\")
        out.append(f"and an autolink <https://example.com/{i}> or <user{s}@example.org>.")
        out.append("")
        for k in range(5):
            out.append(f"{k + 1}. step {words(k + s, 3)}")
            if k % 2 == 0:
                out.append(f"   - sub *{words(k, 2)}* `x{k}`")
                out.append(f"   - sub [r](#a{k}) _{WORDS[k]}_")
        out.append("")
        out += ["> quote " + words(s, 6), "> > nested " + words(i, 4), ""]
        out += ["```js", f"const v{s} = {i} * {s}; // {words(s, 2)}", "```", ""]
        out += [f"    indented code {s}", f"    more {i}", ""]
        out += ["| a | b | c |", "|---|:-:|--:|"]
        out += [f"| {WORDS[r]} | *{r * i}* | `{s}` |" for r in range(4)]
        out += ["", "<div class=\"note\">", f"  html block {s}", "</div>", ""]
        out += ["* * *", ""]
        out.append(f"[ref{s}]: https://example.org/ref/{s} \"Ref {s}\"")
        out.append("")
    return "\n".join(out)


DOCS = [document(i) for i in range(36)]
md = MarkdownIt("commonmark", {"html": True, "typographer": True})
md.enable(["table", "strikethrough"])

crc = 0
tokens = 0
for rnd in range(2):
    for doc in DOCS:
        html = md.render(doc)
        crc = zlib.crc32(html.encode(), crc)
        if rnd == 0:
            toks = md.parse(doc)
            tokens += len(toks)
            crc = zlib.crc32(" ".join(t.type for t in toks).encode(), crc)
print(f"markdown-it: {tokens} tokens, crc {crc:08x}")
