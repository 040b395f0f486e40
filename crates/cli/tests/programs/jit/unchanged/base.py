def total(n):
    t = 0
    for i in range(n):
        t += i + 1
    return t


def main():
    for _ in range(300):
        total(1000)


main()
