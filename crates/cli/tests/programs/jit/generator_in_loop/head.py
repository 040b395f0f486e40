def pair(i):
    yield i
    yield 1


def total(n):
    t = 0
    for i in range(n):
        t += sum(pair(i))
    return t


def main():
    for _ in range(300):
        total(1000)


main()
