"""Pygments workload: highlight generated Python, JavaScript, C, JSON, SQL and YAML
sources to HTML (with line numbers) and to 256-colour terminal text, the way a docs
builder or a pager does: lexers looked up by name once, each source lexed and formatted.
Deterministic; prints a CRC32 of all output."""

import zlib

from pygments import highlight
from pygments.formatters import HtmlFormatter, Terminal256Formatter
from pygments.lexers import get_lexer_by_name


def python_src(i):
    return f'''
import os, sys
from collections import defaultdict

CONSTANT_{i} = {i * 17} + 0x{i:x} - 3.5e{i % 7}

@decorator(name="item{i}", flag=True)
class Widget{i}(Base, metaclass=Meta):
    """Docstring for widget {i}, with 'quotes' and an escape \\n."""
    slots = ("a", "b", "c")

    def method_{i}(self, x: int, *args, key=None, **kw) -> list[str]:
        # a comment about {i}
        result = [f"{{x!r}}-{{k}}" for k in range(x) if k % {i % 5 + 2} == 0]
        try:
            value = self.table[x] ** 2 // 3 @ matrix
        except (KeyError, IndexError) as exc:
            raise ValueError(b"bytes %d" % x) from exc
        finally:
            pass
        while x > 0 and not key:
            x -= 1; yield x
        return sorted(result, key=lambda s: (len(s), s))

async def fetch_{i}(session, url=r"https://example.org/{i}"):
    async with session.get(url) as resp:
        return await resp.json()
'''


def js_src(i):
    return f'''
// module {i}
import {{ render, h }} from "./lib{i}.js";
const RE_{i} = /^[a-z]+\\d{{{i % 4 + 1}}}$/gi;
export default class View{i} extends Component {{
  constructor(props) {{ super(props); this.state = {{ count: {i}, items: [] }}; }}
  async load(url = `https://api.example.org/v1/${{this.id}}/{i}`) {{
    const res = await fetch(url, {{ method: "GET", headers: {{ "X-Id": '{i}' }} }});
    for (let k = 0; k < {i} * 2; k++) {{ if (k % 3 === 0 && !this.done) continue; }}
    return res.ok ? (await res.json()).map((x) => x * 2.5e-3) : null;
  }}
}}
'''


def c_src(i):
    return f'''
#include <stdio.h>
#include "widget{i}.h"
#define MAX_{i} ({i} * 16)
/* block comment {i} */
static const char *names_{i}[] = {{"a", "b\\n", 'c' == 99 ? "yes" : "no"}};
typedef struct node_{i} {{ int key; double weight; struct node_{i} *next; }} node_{i}_t;
int process_{i}(node_{i}_t *head, unsigned long n) {{
    int total = 0x{i:04x};
    for (unsigned long k = 0; k < n && head != NULL; ++k, head = head->next) {{
        total += head->key * {i} >> 2; // shift
        if (total > MAX_{i}) {{ printf("overflow %d\\n", total); return -1; }}
    }}
    return total;
}}
'''


def json_src(i):
    rows = ", ".join(f'{{"id": {i * 10 + k}, "name": "row {k}", "ok": {str(k % 2 == 0).lower()}, '
                     f'"score": {k * 1.25}, "tags": ["a", "b{k}"], "none": null}}'
                     for k in range(8))
    return f'{{"version": {i}, "rows": [{rows}]}}'


def sql_src(i):
    return f'''
SELECT u.id, u.name, COUNT(o.id) AS orders_{i}, SUM(o.total) * 1.{i} AS revenue
FROM users AS u LEFT JOIN orders o ON o.user_id = u.id AND o.status <> 'cancelled'
WHERE u.created_at >= '2023-01-{i % 28 + 1:02d}' AND u.name LIKE 'a%' -- comment {i}
GROUP BY u.id, u.name HAVING COUNT(o.id) > {i % 5} ORDER BY revenue DESC LIMIT {i + 10};
'''


def yaml_src(i):
    return f'''
# config {i}
name: service-{i}
replicas: {i % 5 + 1}
enabled: true
ratio: 0.{i}
env:
  - name: KEY_{i}
    value: "quoted {i}"
  - name: OTHER
    value: 'single'
anchors: &base {{ a: 1, b: [x, y, z] }}
derived:
  <<: *base
  text: |
    multi line {i}
    block
'''


SOURCES = [
    ("python", python_src), ("javascript", js_src), ("c", c_src),
    ("json", json_src), ("sql", sql_src), ("yaml", yaml_src),
]
html = HtmlFormatter(linenos="table", cssclass="hl", anchorlinenos=True, lineanchors="L")
term = Terminal256Formatter(style="default")

crc = 0
total = 0
for name, make in SOURCES:
    lexer = get_lexer_by_name(name)
    for i in range(55):
        src = make(i) * 2
        for fmt in (html, term) if i % 3 == 0 else (html,):
            out = highlight(src, lexer, fmt)
            total += len(out)
            crc = zlib.crc32(out.encode(), crc)
print(f"pygments: {total} chars, crc {crc:08x}")
