SCALE = 3


def total(n):
    t = 0
    for i in range(n):
        t += i * SCALE
    return t


def main():
    for _ in range(2000):
        total(1000)


main()
