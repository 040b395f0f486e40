"""The pass mark became a float (`49.5`, to round half up) while the scores stay ints."""


def hot(scores, pass_mark):
    passed = 0
    for s in scores:
        if s >= pass_mark:
            passed += 1
    return passed


SCORES = [(i * 37) % 100 for i in range(400)]
for _ in range(100):
    hot(SCORES, 49.5)
