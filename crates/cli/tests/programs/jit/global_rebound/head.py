SCALE = 3


def total(n):
    global SCALE
    t = 0
    for i in range(n):
        t += i * SCALE
        if i == n - 1:
            SCALE = 3
    return t


def main():
    for _ in range(2000):
        total(1000)


main()
