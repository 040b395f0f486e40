"""Text processing: generators, comprehensions, lambdas, nested functions."""


def words(text):
    for line in text.splitlines():
        for w in line.split():
            yield w.strip(".,;:!?").lower()


def make_counter():
    counts = {}

    def add(word):
        counts[word] = counts.get(word, 0) + 1

    def top(n):
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]

    return add, top


def stats(text):
    add, top = make_counter()
    for w in words(text):
        if w:
            add(w)
    lengths = [len(w) for w in words(text) if w]
    by_first = {w[0]: w for w in words(text) if w}
    vowels = {c for c in text.lower() if c in "aeiou"}
    longest = max((w for w in words(text)), key=len)
    return top(3), sum(lengths) / len(lengths), len(by_first), sorted(vowels), longest


SAMPLE = """The quick brown fox jumps over the lazy dog.
A specializing interpreter rewrites bytecode while the program runs;
the quick brown fox does not care, but the interpreter does.
"""
