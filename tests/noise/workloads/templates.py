"""A templating engine's shape: templates compiled to Python functions with exec (one
`render` per template, all with the same name and line), string.Template, html escaping."""
import html
import string

TEMPLATES = {
    "row": "<tr><td>{{ name }}</td><td>{{ price }}</td><td>{{ qty }}</td></tr>",
    "card": "<div class='card'><h2>{{ name }}</h2><p>{{ price }} x {{ qty }}</p></div>",
    "item": "<li>{{ name }}: {{ qty }}</li>",
}


def compile_template(name, text):
    parts, code = text.split("{{"), ["def render(ctx):", "    out = []"]
    code.append("    out.append(%r)" % parts[0])
    for part in parts[1:]:
        expr, _, rest = part.partition("}}")
        code.append("    out.append(escape(str(ctx[%r])))" % expr.strip())
        code.append("    out.append(%r)" % rest)
    code.append("    return ''.join(out)")
    namespace = {"escape": html.escape}
    exec(compile("\n".join(code), "<template %s>" % name, "exec"), namespace)
    return namespace["render"]


def main():
    compiled = {name: compile_template(name, text) for name, text in TEMPLATES.items()}
    page = string.Template("<html><title>$title</title><body>$body</body></html>")
    rows = [{"name": "thing <%d>" % i, "price": i * 1.5, "qty": i % 9} for i in range(300)]
    size = 0
    for _ in range(80):
        for name, render in compiled.items():
            body = "".join(render(r) for r in rows)
            size += len(page.substitute(title=name, body=body))
    print(size)


main()
