def total(n):
    a = b = c = 0
    for i in range(n):
        a += i
        b += a & 7
        c += b ^ i
    return a + b + c


def main():
    for _ in range(300):
        total(1000)


main()
