"""beautifulsoup4 workload: scrape generated HTML pages the way a crawler does — parse with the
standard library's html.parser, walk and search the tree (find_all by name, attrs, class and
string), CSS selectors through soupsieve, edit the tree, and serialize it back (str, get_text).
Deterministic; prints a CRC32 of everything extracted."""

import zlib

from bs4 import BeautifulSoup

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
         "rho sigma tau upsilon phi chi psi omega").split()


def page(n):
    rows = []
    for i in range(30):
        w = WORDS[(n + i) % len(WORDS)]
        rows.append(
            f'<tr class="row {"odd" if i % 2 else "even"}" data-id="{n}-{i}">'
            f'<td><a href="/item/{n}/{i}?q={w}&amp;p={i}" title="{w.title()}">{w} &amp; {i}</a></td>'
            f'<td class="num">{i * n % 97}</td><td><span class="tag">{WORDS[i % 7]}</span>'
            f'<em>{w[::-1]}</em></td></tr>')
    items = "".join(f'<li id="li{n}-{j}"><b>{WORDS[j]}</b> text {j}<br/>more &lt;{j}&gt;</li>'
                    for j in range(12))
    return (f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Page {n}</title>'
            f'<script>var x = "<b>{n}</b>";</script><style>td {{ color: red }}</style></head>'
            f'<body><div id="main" class="content wide"><h1>Heading {n}</h1>'
            f'<p class="intro">Intro <i>text</i> with <a href="#top">a link</a> &copy; 2024</p>'
            f'<!-- comment {n} --><ul class="list">{items}</ul>'
            f'<table id="t{n}"><thead><tr><th>name</th><th>n</th><th>tag</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>'
            f'<form action="/s"><input type="text" name="q" value="v{n}"><select name="s">'
            f'<option value="1" selected>one</option><option value="2">two</option></select>'
            f'</form><p>Trailing <unknown-tag foo=bar>custom</unknown-tag> paragraph</p>'
            f'</div></body></html>')


PAGES = [page(n) for n in range(16)]

crc = 0
links = cells = 0
for rnd in range(1):
    for html in PAGES:
        soup = BeautifulSoup(html, "html.parser")
        crc = zlib.crc32(soup.title.string.encode(), crc)
        for a in soup.find_all("a", href=True):
            links += 1
            crc = zlib.crc32((a["href"] + a.get_text()).encode(), crc)
        for tr in soup.find_all("tr", class_="odd"):
            for td in tr.find_all("td"):
                cells += 1
                crc = zlib.crc32(td.get_text(strip=True).encode(), crc)
        for span in soup.select("table tbody tr.even td span.tag"):
            crc = zlib.crc32(span.string.encode(), crc)
        for li in soup.select("ul.list > li:nth-of-type(2n)"):
            crc = zlib.crc32(li.get("id").encode(), crc)
        for s in soup.find_all(string=lambda t: "text" in t):
            crc = zlib.crc32(str(s).encode(), crc)
        for em in soup.find_all("em"):
            em.name = "strong"
            em["class"] = "x"
        for b in soup.find_all("b"):
            b.unwrap()
        soup.find("form").decompose()
        crc = zlib.crc32(str(soup).encode(), crc)
        crc = zlib.crc32(soup.get_text("|").encode(), crc)
print(f"bs4: {links} links, {cells} cells, crc {crc:08x}")
