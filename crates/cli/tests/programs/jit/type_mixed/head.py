def total(values):
    t = 0
    for v in values:
        t = t + v
    return t


def main():
    values = [i if i % 2 else float(i) for i in range(1000)]
    for _ in range(300):
        total(values)


main()
