"""Finding the longest run of equal values (clearer names)."""


def hot(xs):
    longest = 0
    run_length = 0
    previous = None
    for value in xs:
        if value == previous:
            run_length += 1
        else:
            run_length = 1
            previous = value
        if run_length > longest:
            longest = run_length
    return longest


XS = [(i // 3) % 5 for i in range(400)]
for _ in range(100):
    hot(XS)
