def total(n):
    t = 0
    for i in range(n):
        try:
            t += 100 // (i % 7 + 1)
        except ZeroDivisionError:
            t -= 1
    return t


def main():
    for _ in range(300):
        total(1000)


main()
